"""The part every game shares: values, decisions, chance, rulings, provenance, I/O.

Nothing here knows a game. A game module builds on these pieces:

* :mod:`invasion_oracle.model.core.errors` - malformed input, illegal decisions, rules errors;
* :mod:`invasion_oracle.model.core.canonical` - canonical JSON and atomic writes;
* :mod:`invasion_oracle.model.core.events` - the events a step reports;
* :mod:`invasion_oracle.model.core.decisions` - decision and chance requests and who answers them;
* :mod:`invasion_oracle.model.core.driver` - the loop that plays a game to the end and records it;
* :mod:`invasion_oracle.model.core.rulings` - named rulings for points the rulebooks leave open;
* :mod:`invasion_oracle.model.core.provenance` - data values that say where they come from;
* :mod:`invasion_oracle.model.core.jsonio` - reading JSON input with errors that name the field;
* :mod:`invasion_oracle.model.core.codec` - the one shape of reading a scenario and writing a value.
"""
