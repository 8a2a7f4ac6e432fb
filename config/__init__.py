"""Configuration: one TOML file, validated at start; every error names the file, section and option
(config.options: ConfigError, Section; config.load: the file). Nothing is imported here: the
service's first step reads the raw file through config.toml_files before the counter is lit, and
config.options (typing, enum) comes after it."""
