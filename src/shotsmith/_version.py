"""The package's version, in a module of its own: anything may import it without loading
(or circling back through) the package's public face."""

__version__ = "0.1.0"
