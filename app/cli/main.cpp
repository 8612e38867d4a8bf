// placeholder replaced by the CLI commit
int main() { return 0; }
