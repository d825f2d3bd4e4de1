// Reads TOML into `LightShowCore.Configuration` and validates it. See ConfigurationLoader.
