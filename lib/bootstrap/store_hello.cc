#include "bootstrap/store_hello.h"

#include <cstdio>
#include <cstring>

#include "core/error.h"

namespace ccb::bootstrap {
namespace {

uint64_t fnv1a(std::string_view s) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return h;
}

void put_string(std::string& out, std::string_view s) {
  const auto n = static_cast<uint16_t>(std::min<size_t>(s.size(), UINT16_MAX));
  out.append(reinterpret_cast<const char*>(&n), 2);
  out.append(s.substr(0, n));
}

// Reads fields off the front of a payload, refusing to run past its end.
class Cursor {
 public:
  explicit Cursor(std::string_view in) : in_(in) {}
  template <typename T>
  T number(const char* what) {
    T v{};
    need(sizeof v, what);
    std::memcpy(&v, in_.data(), sizeof v);
    in_.remove_prefix(sizeof v);
    return v;
  }
  std::string text(const char* what) {
    auto n = number<uint16_t>(what);
    need(n, what);
    std::string s(in_.substr(0, n));
    in_.remove_prefix(n);
    return s;
  }
  bool done() const { return in_.empty(); }

 private:
  void need(size_t n, const char* what) const {
    if (in_.size() < n) throw Error(ErrorKind::kProtocol, std::string("hello cut short in its ") + what);
  }
  std::string_view in_;
};

std::string job_of(const StoreHello& h) {
  if (h.job.empty()) return h.token == 0 ? "a job without CCB_TOKEN or a launcher job id" : "a job with a token";
  return h.job == "CCB_TOKEN" ? "a job with its own CCB_TOKEN" : h.job;
}

const FingerprintField* find(const JobFingerprint& f, const std::string& name) {
  for (const auto& field : f)
    if (field.name == name) return &field;
  return nullptr;
}

std::string shown(const FingerprintField* f, const std::string& name) {
  return name + " " + (f ? f->value : "(not given)");
}

// "rank 1 runs --sizes 1M but rank 0 runs --sizes 4M"; "" when they agree.
std::string fingerprint_difference(const StoreHello& owner, const StoreHello& joiner) {
  std::vector<std::string> names;
  for (const auto& f : owner.fingerprint) names.push_back(f.name);
  for (const auto& f : joiner.fingerprint)
    if (!find(owner.fingerprint, f.name)) names.push_back(f.name);
  std::string theirs, ours;
  size_t differ = 0;
  for (const std::string& name : names) {
    const FingerprintField *o = find(owner.fingerprint, name), *j = find(joiner.fingerprint, name);
    if (o && j && o->value == j->value) continue;
    if (++differ > 3) continue;
    theirs += (theirs.empty() ? "" : ", ") + shown(j, name);
    ours += (ours.empty() ? "" : ", ") + shown(o, name);
  }
  if (differ == 0) return {};
  std::string s = "rank " + std::to_string(joiner.rank) + " runs " + theirs + " but rank " + std::to_string(owner.rank) +
                  " runs " + ours;
  if (differ > 3) s += " (and " + std::to_string(differ - 3) + " more)";
  return s + ": every rank of a job needs the same flags";
}

}  // namespace

void add_field(JobFingerprint& f, std::string name, std::string value) {
  if (value.size() > kMaxFieldValue) {
    char hash[32];
    std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(fnv1a(value)));
    value = value.substr(0, 64) + "... (" + std::to_string(value.size()) + " chars, hash " + hash + ")";
  }
  f.push_back({std::move(name), std::move(value)});
}

std::string encode_hello(const StoreHello& h) {
  if (h.fingerprint.size() > kMaxFingerprintFields) throw_invalid("too many fingerprint fields");
  std::string out(reinterpret_cast<const char*>(&h.token), 8);
  out.append(reinterpret_cast<const char*>(&h.rank), 4);
  put_string(out, h.job);
  const auto n = static_cast<uint16_t>(h.fingerprint.size());
  out.append(reinterpret_cast<const char*>(&n), 2);
  for (const auto& f : h.fingerprint) {
    put_string(out, f.name);
    put_string(out, f.value);
  }
  return out;
}

StoreHello parse_hello(std::string_view payload) {
  Cursor in(payload);
  StoreHello h;
  h.token = in.number<uint64_t>("token");
  h.rank = in.number<int32_t>("rank");
  h.job = in.text("job label");
  const auto n = in.number<uint16_t>("field count");
  if (n > kMaxFingerprintFields) throw Error(ErrorKind::kProtocol, "hello has " + std::to_string(n) + " fields");
  for (uint16_t i = 0; i < n; ++i) {
    FingerprintField f;
    f.name = in.text("field name");
    f.value = in.text("field value");
    h.fingerprint.push_back(std::move(f));
  }
  if (!in.done()) throw Error(ErrorKind::kProtocol, "hello has bytes after its last field");
  return h;
}

HelloVerdict judge_hello(const StoreHello& owner, int world_size, const StoreHello& joiner, bool rank_taken) {
  if (joiner.token != owner.token) {
    const std::string fix = ": every rank of a job needs the same CCB_TOKEN or launcher job id, and two jobs on "
                            "one host need two CCB_MASTER_PORTs";
    if (joiner.job == owner.job)
      return {"job token mismatch: the process joining has another " + (owner.job.empty() ? "token" : owner.job) +
                  " than this store's job" + fix,
              false};
    return {"job token mismatch: this store belongs to " + job_of(owner) + ", the process joining it to " +
                job_of(joiner) + fix,
            false};
  }
  const bool ours = owner.token != 0;
  const std::string rank = "rank " + std::to_string(joiner.rank);
  if (joiner.rank < 0 || joiner.rank >= world_size)
    return {rank + " is outside world size " + std::to_string(world_size) + " (check CCB_WORLD_SIZE on every rank)",
            ours};
  if (std::string diff = fingerprint_difference(owner, joiner); !diff.empty()) return {diff, ours};
  if (rank_taken)
    return {rank + " joined twice: two processes got the same CCB_RANK, or another job with the same flags and "
                   "no job id uses this store (give each job its own CCB_TOKEN or CCB_MASTER_PORT)",
            ours};
  return {};
}

}  // namespace ccb::bootstrap
