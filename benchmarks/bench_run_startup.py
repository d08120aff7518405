"""What ``tfdebug run`` adds to the start of a script that never imports TensorFlow.

A script that imports nothing, run as ``python SCRIPT`` and as ``tfdebug run SCRIPT`` (the
console script, and ``python -m tfdebug run``), fresh processes interleaved: each side's
median wall time with its 95 % interval, the ratio to python's (target <= 1.5), and the A/A
line (python against itself) for the noise; then the same for CPU time (user + system),
which a loaded machine disturbs less. TensorFlow is loaded only when the script
imports it, so the runner's checks cost nothing here.

    python benchmarks/bench_run_startup.py [--rounds 21]
"""
import argparse
import os
import shutil
import sys
import tempfile

from _harness import PYTHON, ROUNDS, compare, process_cpu, quiet_env, run_process, show


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="tfdebug-bench-run-")
    try:
        script = os.path.join(folder, "script.py")
        with open(script, "w") as fh:
            fh.write("import json, sys\nprint(json.dumps(sys.argv))\n")
        env = quiet_env()
        tool = shutil.which("tfdebug", path=os.path.dirname(PYTHON)) or "tfdebug"
        sides = {"python SCRIPT": [PYTHON, script],
                 "tfdebug run SCRIPT": [tool, "run", script],
                 "python -m tfdebug run SCRIPT": [PYTHON, "-m", "tfdebug", "run", script]}
        for argv in sides.values():  # bytecode written, files cached
            run_process(argv, env=env, cwd=folder)
        result = compare({name: (lambda argv=argv: run_process(argv, env=env, cwd=folder))
                          for name, argv in sides.items()}, rounds=args.rounds)
        show("start-up of a script without TensorFlow (wall time of a fresh process)", result,
             target=1.5, unit="ms")
        result = compare({name: (lambda argv=argv: process_cpu(argv, env=env, cwd=folder))
                          for name, argv in sides.items()}, rounds=args.rounds)
        show("the same, CPU time (user + system) of the process", result, target=1.5, unit="ms")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
