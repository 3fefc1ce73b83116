f=$1
g++ -std=c++17 -O0 -w -I/tmp/cute/port -I/tmp/cute/include -I/usr/local/cuda/include -I/usr/local/cuda/include/cccl $f.cpp -o $f.bin -lgtest -lgtest_main -lpthread 2> $f.err && ./$f.bin > $f.out 2> $f.jsonl; echo "$f rc=$?"
