// A model of a scan on a fabric, for qualifying fleets this machine cannot emulate
// (`ccbench fabric simulate`). It is a model of link rates and shared paths, not of
// switches, queues or transport protocols:
//  - a pair's bandwidth each way is its path's scarcest cable share: each cable's rate
//    split evenly among the round's pairs that cross it;
//  - its latency one way is the hosts' stack latency plus its cables' delays;
//  - a fault multiplies what every pair through the element gets (a degraded optic, a
//    lane down, errors that throttle each flow): 0.5 halves it, 0 cuts the element;
//  - noise only ever slows a figure: each is divided by 1 + |N(0, noise)|, drawn anew
//    at every try, seeded.
// The scan is then run as the real one runs on a known fabric: its plan's rounds, then
// each pair that fabric_rule.h calls slow measured alone, up to `retests` times, keeping
// its best figures.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "fabric/scan_plan.h"
#include "fabric/topology.h"
#include "judge/pair_scan.h"

namespace ccb::fabric {

struct ElementFault {
  size_t element = 0;
  double factor = 1;  // what a pair through it keeps: (0, 1), or 0 for a cut
};

struct SimulationSettings {
  PairTest test;
  double stack_us = 2.0;   // one way, the hosts' software and NICs
  double noise = 0.02;
  uint64_t seed = 1;
  std::vector<ElementFault> faults;
  int retests = 2;
  judge::ScanLimits limits;
};

struct SimulatedScan {
  std::vector<judge::PairFigure> first, final;  // each measured pair once; final: after the retests
  std::vector<judge::SlowPair> retested;        // slow after the rounds: measured again alone
  double plan_seconds = 0, retest_seconds = 0;  // as the model times the rounds and the retests
};

SimulatedScan simulate_scan(const Topology& t, const Rounds& rounds, const SimulationSettings& s);
// The plan's rounds on a healthy, quiet fabric: what `scan --dry-run` predicts.
double predicted_plan_seconds(const Topology& t, const Rounds& rounds, const PairTest& test, double stack_us);

// "ELEMENT:FACTOR" as --fault takes it ("leaf2->spine1:0.5", "h7:0.5", "spine3:0").
ElementFault parse_fault(const std::string& text, const Topology& t);

}  // namespace ccb::fabric
