package org.faultbench.numeric;

/** Integer matrices as int[rows][columns]. */
public final class Matrix {

    private Matrix() {
    }

    public static int[][] multiply(int[][] a, int[][] b) {
        int n = a.length;
        int m = b.length;
        int p = b[0].length;
        if (a[0].length != m) {
            throw new IllegalArgumentException("a has " + a[0].length + " columns but b has " + m + " rows");
        }
        int[][] c = new int[n][p];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < p; j++) {
                int sum = 0;
                for (int k = 0; k < m; k++) {
                    sum += a[i][k] * b[k][j];
                }
                c[i][j] = sum;
            }
        }
        return c;
    }

    public static int[][] transpose(int[][] m) {
        int[][] t = new int[m[0].length][m.length];
        for (int i = 0; i < m.length; i++) {
            for (int j = 0; j < m[0].length; j++) {
                t[j][i] = m[i][j];
            }
        }
        return t;
    }
}
