/// A closure that threads share through a `Mutex`. Reading a bare closure back out of `Mutex.withLock` goes through
/// a reabstraction thunk whose 32-byte context is never freed (Swift 6.3; heaptrack found one per read: 100 a
/// second in `watch`, one per `ctl status` in the daemon). A class reference comes out as it went in.
public final class Callback<Input, Output>: Sendable {
    public let call: @Sendable (Input) -> Output

    public init(_ call: @escaping @Sendable (Input) -> Output) {
        self.call = call
    }
}
