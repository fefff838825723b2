"""The cookbook runner: pages in, checked results out."""
