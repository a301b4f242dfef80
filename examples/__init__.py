"""Bundled example scenarios, shipped as package data (see :mod:`model.core.bundled`)."""
