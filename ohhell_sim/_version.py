"""The installed package version."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("ohhell-sim")
except PackageNotFoundError:  # a source tree that was never installed
    __version__ = "0+unknown"
