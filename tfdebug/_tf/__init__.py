"""Every touch of TensorFlow internals lives here, version-gated, with a fallback.

Public TF API is used where it exists (the eager flag, ``tf.inside_function``); private
hooks (the trace hook, the scoped tf.data debug switch) are checked against the
supported versions and degrade to a one-time warning when they are missing.

The package face re-exports each submodule's public names, so callers write
``from tfdebug import _tf; _tf.install_trace_hook(...)``. A test that replaces a function or
a piece of state patches the submodule that defines and uses it (``_tf.trace_hook``), since
a patch of the name re-exported here does not reach that submodule.
"""
from .autograph import (autograph_origin, autograph_source_maps, converted_target,
                        do_not_convert_instance, frame_origin, is_generated_file, mapped_location,
                        is_python_len, next_left_to_python, past_converted_call, raised_in_tensor_branch)
from .calls import calls_since_trace, stats_key
from .conversion import (Decline, declined_function, keras_caller, library_caller, record_declines, recorded_decline,
                         stop_recording_declines)
from .flags import (data_debug_mode, data_debug_mode_scopable, functions_run_eagerly,
                    inside_function, set_data_debug_mode, set_functions_run_eagerly)
from .formatting import (add_tensor_format_hook, is_per_replica, is_symbolic, per_replica_type_names, remove_tensor_format_hook,
                         symbolic_tensor_repr, symbolic_tensor_text, symbolic_tensor_type_names,
                         tensor_format_hooked)
from .data_replay import (iterations_watched, replayed_random_ops, seeded_random_ops, unwatch_iterations,
                          watch_iterations)
from .keras_state import (RATE_READERS, changed_flags, logs_averaged_across_replicas, loop_callbacks,
                          loop_called_while_tracing,
                          model_strategy, ran_since, rate_callable, reset_step_function, run_marker,
                          step_owner, train_function_traced, trainable_flags, trained_model,
                          unwatch_trainable, watch_trainable)
from .layer_hook import install_layer_call_hook, layer_call_hooked, uninstall_layer_call_hook
from .locations import (called_tf_functions, failed_function_call, graph_error_locations, handle_refused_by_invariant,
                        inside_trace, is_cond_builder, op_user_site, iterator_next_past_end, leaked_argument, leaked_graph_tensor,
                        raised_running_graph, refuses_only_graph_tensors,
                        op_creation_stack, refused_argument, refused_return_value, refused_tensor_origin,
                        registered_py_function,
                        staged_statement_output,
                        traced_user_location, unlifted_variable_origins)
from .saved_calls import restored_call_mismatch
from .retrace_warning import tensorflow_logger, warned_function
from .targets import (describe_trace_type, function_target, is_internal_function,
                      is_tf_function, shape_lost_in_pipeline, tf_function_key, trace_scope,
                      traced_target, unknown_rank_elements, xla_refused_op_kinds)
from .trace_hook import (HookRefusal, evict_concrete, install_trace_hook, redirect_trace_caches, traced_concretes,
                         restore_trace_caches, trace_caches_redirected, trace_hook_available,
                         trace_hook_installed, trace_parameters, trace_uses_xla,
                         traced_python_function, uninstall_trace_hook)
from .tracebacks import record_hidden_frames, stop_recording_hidden_frames, unfiltered_frames
from .versions import SUPPORTED, tf_version, version_supported, warn_once

__all__ = [
    "SUPPORTED", "Decline", "keras_caller", "library_caller", "calls_since_trace", "stats_key", "HookRefusal", "changed_flags", "loop_callbacks", "rate_callable", "RATE_READERS", "reset_step_function", "step_owner", "unknown_rank_elements", "shape_lost_in_pipeline", "xla_refused_op_kinds", "ran_since", "run_marker",
    "unwatch_trainable", "watch_trainable", "declined_function", "record_declines",
    "recorded_decline", "stop_recording_declines", "record_hidden_frames",
    "stop_recording_hidden_frames", "unfiltered_frames",
    "add_tensor_format_hook", "autograph_origin", "autograph_source_maps", "converted_target",
    "data_debug_mode", "data_debug_mode_scopable", "describe_trace_type",
    "do_not_convert_instance", "evict_concrete", "frame_origin", "failed_function_call", "function_target",
    "functions_run_eagerly", "graph_error_locations", "handle_refused_by_invariant", "is_cond_builder", "refuses_only_graph_tensors", "inside_function",
    "install_layer_call_hook", "install_trace_hook", "is_generated_file",
    "is_internal_function", "is_per_replica", "is_symbolic", "per_replica_type_names", "is_tf_function", "layer_call_hooked",
    "called_tf_functions", "leaked_argument", "leaked_graph_tensor", "raised_running_graph", "refused_argument", "registered_py_function",
    "staged_statement_output",
    "logs_averaged_across_replicas", "mapped_location", "model_strategy", "op_creation_stack", "redirect_trace_caches", "refused_return_value",
    "is_python_len", "iterator_next_past_end", "next_left_to_python", "raised_in_tensor_branch", "refused_tensor_origin", "unlifted_variable_origins",
    "remove_tensor_format_hook", "restored_call_mismatch", "restore_trace_caches", "set_data_debug_mode",
    "set_functions_run_eagerly", "symbolic_tensor_repr", "symbolic_tensor_type_names", "tensor_format_hooked", "tf_function_key", "tf_version",
    "trace_caches_redirected", "trace_hook_available", "trace_hook_installed",
    "trace_parameters", "trace_scope", "trace_uses_xla", "traced_python_function",
    "train_function_traced", "trained_model", "trainable_flags",
    "traced_target", "traced_user_location", "uninstall_layer_call_hook",
    "tensorflow_logger", "uninstall_trace_hook", "version_supported", "warn_once",
    "warned_function", "past_converted_call",
]
