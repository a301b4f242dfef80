"""Command line, tables and Markdown reports. Every claim printed comes with its command."""
