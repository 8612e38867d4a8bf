// placeholder replaced by the GUI commit
int main() { return 0; }
