"""The reference oracle: one subpackage per game over the shared :mod:`invasion_oracle.model.core`."""
