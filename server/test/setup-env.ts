// Every server test starts from a quiet logger and the real clock.
process.env.NODE_ENV = 'test';
