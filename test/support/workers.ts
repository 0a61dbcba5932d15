// Tests wait on I/O (MariaDB, Redis, child processes) more than on the 2 CPUs.
export const MAX_WORKERS = 3;
