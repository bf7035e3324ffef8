#include "job/address_list.h"

#include "core/error.h"

namespace ccb {

std::string encode_address_list(const std::vector<std::string>& addresses) {
  std::string out;
  for (const std::string& a : addresses) out += std::to_string(a.size()) + ':' + a;
  return out;
}

std::vector<std::string> decode_address_list(const std::string& text, size_t expected, int from_rank) {
  const auto malformed = [&] {
    return Error(ErrorKind::kProtocol, "rank " + std::to_string(from_rank) + " sent malformed group addresses");
  };
  std::vector<std::string> out;
  size_t at = 0;
  while (at < text.size() && out.size() < expected) {
    const size_t colon = text.find(':', at);
    if (colon == std::string::npos || colon == at || colon - at > 19) throw malformed();
    size_t length = 0;
    for (size_t i = at; i < colon; ++i) {
      if (text[i] < '0' || text[i] > '9') throw malformed();
      length = length * 10 + static_cast<size_t>(text[i] - '0');
    }
    if (length > text.size() - colon - 1) throw malformed();
    out.push_back(text.substr(colon + 1, length));
    at = colon + 1 + length;
  }
  if (out.size() != expected || at != text.size()) throw malformed();
  return out;
}

}  // namespace ccb
