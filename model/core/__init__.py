"""The part every game shares: values, decisions, chance, rulings, provenance, I/O.

Nothing here knows a game. A game module builds on these pieces:

* :mod:`model.core.errors` - malformed input, illegal decisions, rules errors;
* :mod:`model.core.canonical` - canonical JSON and atomic writes;
* :mod:`model.core.events` - the events a step reports;
* :mod:`model.core.decisions` - decision and chance requests and who answers them;
* :mod:`model.core.driver` - the loop that plays a game to the end and records it;
* :mod:`model.core.rulings` - named rulings for points the rulebooks leave open;
* :mod:`model.core.provenance` - data values that say where they come from;
* :mod:`model.core.jsonio` - reading JSON input with errors that name the field.
"""
