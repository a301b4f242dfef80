"""Stonespine's report parts: its verbs, its pictures and tables, its main-job sections."""
