// The cheapest possible exec strategy program: it answers every request
// with its first candidate, so that bridge_bench can tell the cost of
// the protocol and the pipes from the cost of a Python strategy.

#include <cstdio>
#include <cstring>
#include <string>

int main() {
  std::string line;
  char buffer[1 << 16];
  while (std::fgets(buffer, sizeof buffer, stdin)) {
    line += buffer;
    if (line.empty() || line.back() != '\n') continue;  // a longer line
    const char* key = "\"candidates\":[{\"id\":\"";
    const char* id = std::strstr(line.c_str(), key);
    if (!id) return 1;
    id += std::strlen(key);
    const char* end = std::strchr(id, '"');  // bench ids have no escapes
    if (!end) return 1;
    std::printf("{\"instance\":\"%.*s\",\"reason\":\"first\"}\n", static_cast<int>(end - id), id);
    std::fflush(stdout);
    line.clear();
  }
  return 0;
}
