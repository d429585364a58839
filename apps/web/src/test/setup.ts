import { configure } from '@testing-library/react';

// `findBy…` and `waitFor` give up after 1 s by default; on a loaded two-core machine (the API suites
// beside the web's) a render and its fetches have taken longer. A passing test waits for none of it.
configure({ asyncUtilTimeout: 10_000 });
