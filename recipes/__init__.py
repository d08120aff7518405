"""Recipe data: one TOML file per recipe (read by tfdebug.recipebook)."""
