// One rank's transport addresses for several groups or levels, as one all-gather
// carries them: each length-prefixed, since addresses are opaque bytes.
#pragma once
#include <string>
#include <vector>

namespace ccb {

std::string encode_address_list(const std::vector<std::string>& addresses);
// Throws kProtocol naming `from_rank` unless `text` holds exactly `expected` addresses.
std::vector<std::string> decode_address_list(const std::string& text, size_t expected, int from_rank);

}  // namespace ccb
