// Must NOT compile: step 4's rows are spread over two warps (a reduction across warps).
#include "register_common.hpp"
using Acc = Fragment<float, Layout("((2,2),2,4)"_tuple)>;
constexpr LaneShuffles kRow = acc_row_shuffles<Step4, Acc>();
