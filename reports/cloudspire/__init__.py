"""20 Strong: Cloudspire's report parts: pictures around a run, the data listing, its searches'
verbs and the main-job sections."""
