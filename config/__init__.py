"""Configuration: one TOML file, validated at start; every error names the file, section and option."""
from config.options import ConfigError, Section

__all__ = ["ConfigError", "Section"]
