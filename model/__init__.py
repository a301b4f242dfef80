"""The reference oracle: one subpackage per game over the shared :mod:`model.core`."""
