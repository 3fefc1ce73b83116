#pragma once
#include <gtest/gtest.h>
#include <cutlass/cutlass.h>
#include <sstream>
#include <cstdio>
#include <string>
#define CUTLASS_TRACE_HOST(x)
// Records one case as a JSON line on stderr: op, printed operands, printed result.
template <class T>
std::string rec_str(T const& x) {
  std::ostringstream o;
  o << x;
  std::string s = o.str(), r;
  for (char c : s)
    if (c != '_' && c != ' ') r += c;
  return r;
}
inline void rec_emit(const char* op, std::initializer_list<std::string> parts) {
  std::string line = std::string("{\"op\":\"") + op + "\",\"v\":[";
  bool first = true;
  for (auto const& p : parts) {
    if (!first) line += ",";
    first = false;
    line += "\"" + p + "\"";
  }
  line += "]}\n"; std::fputs(line.c_str(), stderr);
}
#define REC1(op,a,r) rec_emit(op,{rec_str(a),rec_str(r)})
#define REC2(op,a,b,r) rec_emit(op,{rec_str(a),rec_str(b),rec_str(r)})
