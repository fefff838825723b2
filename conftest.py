"""Root conftest: load the TCK harness's options, so `pytest --tck-features PATH` works from the root."""

pytest_plugins = ["tests.tck.plugin"]
