pragma circom 2.0.0;

include "bitify.circom";
include "comparators.circom";
include "gates.circom";

// A few hundred constraints from circomlib: 64-bit range checks, a comparison, a bitwise XOR and a
// product. Two public inputs (a, b), three public outputs, one private input (key).
template Bits(n) {
    signal input a;
    signal input b;
    signal input key;
    signal output lt;      // a < b
    signal output masked;  // a XOR key
    signal output prod;    // (a + key) * (b + 1)

    component bitsA = Num2Bits(n);
    bitsA.in <== a;
    component bitsB = Num2Bits(n);
    bitsB.in <== b;
    component bitsK = Num2Bits(n);
    bitsK.in <== key;

    component cmp = LessThan(n);
    cmp.in[0] <== a;
    cmp.in[1] <== b;
    lt <== cmp.out;

    component xors[n];
    component pack = Bits2Num(n);
    for (var i = 0; i < n; i++) {
        xors[i] = XOR();
        xors[i].a <== bitsA.out[i];
        xors[i].b <== bitsK.out[i];
        pack.in[i] <== xors[i].out;
    }
    masked <== pack.out;

    prod <== (a + key) * (b + 1);
}

component main {public [a, b]} = Bits(64);
