"""The rule-ambiguity register and reports, for every game on the contract (issue 11).

``analysis`` runs the jobs (witnesses, fixture dependencies, divergence and well-formedness
searches) and holds their answers; ``render`` writes them as Markdown; ``baseline`` compares
two answers for a designer's CI; ``fixtures`` reads the fixtures folder thinly; ``jobs`` are
the batch functions sent to a process pool or a Dask cluster.
"""
