pragma circom 2.0.0;

// The smallest useful circuit: one multiplication, one public input and one public output.
template Multiplier() {
    signal input a;
    signal input b;
    signal output c;
    c <== a * b;
}

component main {public [a]} = Multiplier();
