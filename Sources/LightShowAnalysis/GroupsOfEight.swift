extension Range<Int> {
    /// Calls `body` with the first index of each group of eight in this range (of at least eight). The last group
    /// ends where the range does and may overlap the one before, whose indices it sees again: the bins left over
    /// need no loop of their own, which live was more code to fetch from cold memory on every wake-up. A body that
    /// writes what it reads in place must compute the last group before the others (see `SpectralFlux`).
    @inline(__always)
    func eachGroupOfEight(_ body: (Int) -> Void) {
        var index = lowerBound
        while index + 8 < upperBound {
            body(index)
            index += 8
        }
        body(upperBound - 8)
    }
}
