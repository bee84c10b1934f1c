// A browser test that fails because Chromium went away (seen on the shared 2-core machine, no crash
// report) is retried once with the reason printed; a genuine failure fails both times.
jest.retryTimes(1, { logErrorsBeforeRetry: true });
