// syncfs: part of glibc, but a GNU extension, and Swift's Glibc module is built without _GNU_SOURCE.
int syncfs(int fd);
