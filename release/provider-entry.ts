/** The main script of the standalone executable: the provider as `bin.ts` serves it, bundled into one file. */
import '../src/provider/bin';
