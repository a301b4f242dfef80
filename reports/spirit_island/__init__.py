"""Spirit Island's report parts: its searches, its pictures and tables, its main-job sections."""
