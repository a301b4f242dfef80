"""Bundled example scenarios, shipped as package data (see :mod:`invasion_oracle.model.core.bundled`)."""
