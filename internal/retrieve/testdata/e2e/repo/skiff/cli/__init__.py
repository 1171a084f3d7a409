"""The skiff command line."""
