// webhook: the deploy endpoint has no page of its own. This script exists because every feature
// serves its static files at /<feature>/<subfolder>/<filename> and registers its script for
// inclusion on every page (specification, Endpoints); there is nothing for it to do in a browser.
