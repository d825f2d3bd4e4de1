#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Unmaps the code pages start-up touched and the running show doesn't. The kernel maps a file 64 KB at a time
/// around each page that faults (fault-around), so argument parsing, the config, FFTW's planner and the rest of
/// start-up leave about 10 MB of the program's 17 MB of code resident, and FFTW's codelets another 1.5 MB, though
/// a running show executes a few hundred KB. Once start-up is over, each executable file mapping is told to fault in
/// page by page from now on (MADV_RANDOM) and is unmapped (MADV_DONTNEED): the pages stay in the page cache, and
/// those still used come back at one minor fault each. Resident memory of a running show falls from about 22 MB to
/// 12 MB (Tests/Benchmarks/memory.sh).
public enum ResidentCode {
    private static let released = Atomic<Bool>(false)

    /// Once per process; later calls do nothing.
    public static func releaseStartupPages() {
        guard !released.load(ordering: .relaxed), !released.exchange(true, ordering: .relaxed) else { return }
        releaseCodePages()
    }

    /// Only read-execute private mappings are touched: nothing ever writes them, so unmapping loses nothing (a
    /// written private page, such as relocated RELRO data, would revert to the file's bytes).
    static func releaseCodePages() {
        guard let maps = try? SmallFile(path: "/proc/self/maps").read(limit: 1 << 20, followingSymlinks: true) else { return }
        for line in maps.split(separator: UInt8(ascii: "\n")) {
            guard let mapping = CodeMapping(line) else { continue }
            _ = madvise(mapping.start, mapping.length, MADV_RANDOM)
            _ = madvise(mapping.start, mapping.length, MADV_DONTNEED)
        }
    }
}

/// One line of /proc/self/maps naming a file mapped read-execute and private:
/// `55d0c4a76000-55d0c5b11000 r-xp 00000000 fe:00 5334091   /usr/bin/lightshow`.
private struct CodeMapping {
    let start: UnsafeMutableRawPointer
    let length: Int

    init?(_ line: ArraySlice<UInt8>) {
        let space = UInt8(ascii: " ")
        let fields = line.split(separator: space, maxSplits: 5, omittingEmptySubsequences: true)
        guard fields.count == 6, fields[1].elementsEqual("r-xp".utf8),
              fields[5].drop(while: { $0 == space }).first == UInt8(ascii: "/")
        else { return nil }
        let range = fields[0].split(separator: UInt8(ascii: "-"))
        guard range.count == 2,
              let low = UInt(String(decoding: range[0], as: UTF8.self), radix: 16),
              let high = UInt(String(decoding: range[1], as: UTF8.self), radix: 16),
              high > low, let start = UnsafeMutableRawPointer(bitPattern: low)
        else { return nil }
        self.start = start
        length = Int(high - low)
    }
}
