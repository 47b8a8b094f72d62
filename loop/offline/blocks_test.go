package offline

import (
	"testing"
)

// blocksExtra reads its data in blocks of eight bytes, as a hash or a decoder does: an input
// reaches readLong only with at least eight elements and a length of at least eight (the seed
// is a third parameter, as MurmurHash2.hash64's: the boundary combinations then pair long
// arrays only with the simplest lengths).
const blocksExtra = `
    public static long hashBlocks(byte[] data, int length, int seed) {
        long h = seed;
        for (int i = 0; i < length / 8; i++) {
            h = h * 31 + readLong(data, i * 8);
        }
        return h;
    }

    private static long readLong(byte[] data, int index) {
        return ((long) data[index] & 0xff)
            | (((long) data[index + 1] & 0xff) << 8)
            | (((long) data[index + 2] & 0xff) << 16)
            | (((long) data[index + 3] & 0xff) << 24)
            | (((long) data[index + 4] & 0xff) << 32)
            | (((long) data[index + 5] & 0xff) << 40)
            | (((long) data[index + 6] & 0xff) << 48)
            | (((long) data[index + 7] & 0xff) << 56);
    }
`

// TestBlockReadsGetALongArray: a private method reading eight bytes at an index, reached only
// through a public method given an array and its length, gets tests that tell a read at the
// wrong position and a wrong shift apart (the array pool's short lists all throw or never
// reach it; MurmurHash2.getLittleEndianLong on the workbench).
func TestBlockReadsGetALongArray(t *testing.T) {
	proj, file := calculator(t)
	a := newAgent(t, proj)
	s := withExtra(t, proj, file, blocksExtra, "readLong")
	for _, c := range []struct{ from, to string }{
		{"data[index + 1]", "data[index]"},
		{"<< 16", "<< 17"},
	} {
		t.Run(c.to, func(t *testing.T) {
			m := mutantOn(t, s, c.from, c.to)
			tests, err := a.KillMutant(testCtx(t), s, m)
			if err != nil {
				t.Fatal(err)
			}
			checkKills(t, proj, s, m, tests)
		})
	}
}
