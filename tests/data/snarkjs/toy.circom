pragma circom 2.0.0;

template Toy() {
    signal input a;
    signal input b;
    signal input x;
    signal output c;
    signal output d;
    signal t;
    t <== a * b;
    c <== t * x + 3 * a + 5;
    d <== (a + 2 * b) * (x - 7);
}

component main {public [a]} = Toy();
