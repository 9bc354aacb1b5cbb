"""The constructions of the paper: one module per theorem's decoder, its readings and repairs."""
