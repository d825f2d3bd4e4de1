import LightShowCore
import Testing

@Suite struct PlaybackStateMachineTests {
    typealias Machine = PlaybackStateMachine<ManualClock>

    let clock = ManualClock()

    /// A machine whose input has started, so it is playing.
    func playing(idleAfter: Duration = .seconds(10)) -> Machine {
        var machine = Machine(idleAfter: idleAfter, clock: clock)
        #expect(machine.inputStarted() == .play(.inputStarted))
        return machine
    }

    /// Feeds silence in analysis-sized steps for `duration`, returning every action that wasn't `.none`.
    func silence(_ machine: inout Machine, for duration: Duration, step: Duration = .milliseconds(100)) -> [Machine.Action] {
        var actions: [Machine.Action] = []
        var left = duration
        while left > .zero {
            clock.advance(by: step)
            left -= step
            let action = machine.audio(hasSound: false)
            if action != .none { actions.append(action) }
        }
        return actions
    }

    // MARK: Start and end of input

    @Test func startsStoppedAndPlaysWhenInputStarts() {
        var machine = Machine(idleAfter: .seconds(10), clock: clock)
        #expect(machine.state == .stopped)
        #expect(machine.reason == .initial)
        #expect(machine.inputStarted() == .play(.inputStarted))
        #expect(machine.state == .playing)
    }

    @Test func endOfInputStops() {
        var machine = playing()
        #expect(machine.inputEnded() == .stop(.inputEnded))
        #expect(machine.state == .stopped)
        // Nothing to play any more: sound can't arrive, and the user's play does nothing.
        #expect(machine.user(.play) == .none)
        #expect(machine.audio(hasSound: true) == .none)
        #expect(machine.idleDeadline == nil)
    }

    @Test func endOfInputStopsEvenWhenPaused() {
        var machine = playing()
        #expect(machine.user(.pause) == .pause(.user(.pause)))
        #expect(machine.inputEnded() == .stop(.inputEnded))
    }

    @Test func endOfInputWhileStoppedKeepsStoppedWithNewReason() {
        var machine = playing()
        _ = machine.user(.stop)
        #expect(machine.inputEnded() == .none)
        #expect(machine.reason == .inputEnded)
    }

    @Test func inputRestartingPlaysAgain() {
        var machine = playing()
        _ = machine.inputEnded()
        #expect(machine.inputStarted() == .play(.inputStarted))
    }

    // MARK: Silence and sound

    @Test func silenceLongerThanIdleAfterStops() {
        var machine = playing()
        #expect(silence(&machine, for: .milliseconds(9_900)).isEmpty)
        #expect(machine.state == .playing)
        let actions = silence(&machine, for: .milliseconds(100))
        #expect(actions == [.stop(.silence(seconds: 10))])
        #expect(machine.state == .stopped)
    }

    @Test func soundResetsTheIdleTimer() {
        var machine = playing()
        #expect(silence(&machine, for: .seconds(8)).isEmpty)
        #expect(machine.audio(hasSound: true) == .none)
        #expect(silence(&machine, for: .seconds(8)).isEmpty)
        #expect(machine.state == .playing)
        #expect(silence(&machine, for: .seconds(2)).count == 1)
        #expect(machine.state == .stopped)
    }

    @Test func soundAfterIdleStopPlays() {
        var machine = playing()
        _ = silence(&machine, for: .seconds(10))
        #expect(machine.state == .stopped)
        // Silence while stopped changes nothing, however long.
        #expect(silence(&machine, for: .seconds(60), step: .seconds(1)).isEmpty)
        #expect(machine.audio(hasSound: true) == .play(.soundReturned))
        #expect(machine.state == .playing)
        // And the idle timer starts afresh from the sound.
        #expect(machine.idleDeadline == clock.now.advanced(by: .seconds(10)))
    }

    @Test func idleDeadlineLetsASilentSourceIdleOut() throws {
        var machine = playing(idleAfter: .seconds(3))
        let deadline = try #require(machine.idleDeadline)
        #expect(deadline == clock.now.advanced(by: .seconds(3)))
        // An early timeout does nothing.
        clock.advance(by: .seconds(1))
        #expect(machine.timeoutTriggered() == .none)
        clock.advance(to: deadline)
        #expect(machine.timeoutTriggered() == .stop(.silence(seconds: 3)))
        #expect(machine.idleDeadline == nil)
    }

    @Test func idleAfterComesFromSettings() {
        var settings = PlaybackSettings()
        settings.idleAfterSeconds = 2.5
        var machine = Machine(settings: settings, clock: clock)
        _ = machine.inputStarted()
        #expect(machine.idleDeadline == clock.now.advanced(by: .milliseconds(2500)))
    }

    @Test func reloadedSettingsKeepTheStateAndJudgeSilenceByTheNewLimit() {
        var machine = playing(idleAfter: .seconds(10))
        clock.advance(by: .seconds(3))
        var settings = PlaybackSettings()
        settings.idleAfterSeconds = 2
        machine.adopt(settings)
        #expect(machine.state == .playing)
        #expect(machine.reason == .inputStarted)
        #expect(machine.idleDeadline == clock.now.advanced(by: .seconds(-1)))
        #expect(machine.timeoutTriggered() == .stop(.silence(seconds: 3)))
    }

    // MARK: User commands

    @Test func userCommandsMoveBetweenAllStates() {
        var machine = playing()
        #expect(machine.user(.pause) == .pause(.user(.pause)))
        #expect(machine.user(.pause) == .none)
        #expect(machine.user(.play) == .play(.user(.play)))
        #expect(machine.user(.play) == .none)
        #expect(machine.user(.toggle) == .pause(.user(.toggle)))
        #expect(machine.user(.toggle) == .play(.user(.toggle)))
        #expect(machine.user(.stop) == .stop(.user(.stop)))
        #expect(machine.user(.stop) == .none)
        // Pausing what is stopped does nothing; toggling it plays.
        #expect(machine.user(.pause) == .none)
        #expect(machine.state == .stopped)
        #expect(machine.user(.toggle) == .play(.user(.toggle)))
        _ = machine.user(.pause)
        #expect(machine.user(.stop) == .stop(.user(.stop)))
    }

    @Test func userPauseHoldsAgainstSilenceAndSound() {
        var machine = playing()
        _ = machine.user(.pause)
        #expect(silence(&machine, for: .seconds(30)).isEmpty)
        #expect(machine.audio(hasSound: true) == .none)
        #expect(machine.state == .paused)
        #expect(machine.idleDeadline == nil)
        #expect(machine.user(.play) == .play(.user(.play)))
    }

    @Test func userStopHoldsUntilUserPlays() {
        var machine = playing()
        _ = machine.user(.stop)
        #expect(machine.audio(hasSound: true) == .none)
        #expect(silence(&machine, for: .seconds(30)).isEmpty)
        #expect(machine.audio(hasSound: true) == .none)
        // A restarted input doesn't lift it either.
        _ = machine.inputEnded()
        _ = machine.user(.stop)
        #expect(machine.inputStarted() == .none)
        #expect(machine.state == .stopped)
        #expect(machine.user(.play) == .play(.user(.play)))
    }

    @Test func userStopMakesAnIdleStopAHold() {
        var machine = playing()
        _ = silence(&machine, for: .seconds(10))
        #expect(machine.reason == .silence(seconds: 10))
        #expect(machine.user(.stop) == .none)
        #expect(machine.audio(hasSound: true) == .none)
        #expect(machine.state == .stopped)
    }

    @Test func userPlayIsNotAHoldAgainstSilence() {
        var machine = playing()
        _ = machine.user(.pause)
        #expect(machine.user(.play) == .play(.user(.play)))
        let actions = silence(&machine, for: .seconds(10))
        #expect(actions == [.stop(.silence(seconds: 10))])
    }

    @Test func userPlayAfterIdleStopStartsAFreshIdleTimer() {
        var machine = playing()
        _ = silence(&machine, for: .seconds(10))
        #expect(machine.user(.play) == .play(.user(.play)))
        #expect(silence(&machine, for: .milliseconds(9_900)).isEmpty)
        #expect(machine.state == .playing)
    }

    // MARK: MPD

    @Test func playerStateIsTheTruthWhileConnected() {
        var machine = playing()
        #expect(machine.player(.paused) == .pause(.player(.paused)))
        #expect(machine.isPlayerConnected)
        // Sound doesn't override MPD's pause.
        #expect(machine.audio(hasSound: true) == .none)
        #expect(machine.player(.playing) == .play(.player(.playing)))
        // Silence only dims: it never stops a show MPD says is playing.
        #expect(silence(&machine, for: .seconds(60), step: .seconds(1)).isEmpty)
        #expect(machine.state == .playing)
        #expect(machine.idleDeadline == nil)
        #expect(machine.player(.stopped) == .stop(.player(.stopped)))
        #expect(machine.audio(hasSound: true) == .none)
        #expect(machine.state == .stopped)
    }

    @Test func mpdConnectingAppliesItsStateOverAUserHold() {
        var machine = playing()
        _ = machine.user(.stop)
        #expect(machine.player(.playing) == .play(.player(.playing)))
    }

    @Test func newestCommandWinsBetweenUserAndMPD() {
        var machine = playing()
        _ = machine.player(.playing)
        #expect(machine.user(.pause) == .pause(.user(.pause)))
        // MPD repeating "play" (a new song) doesn't undo the user's pause...
        #expect(machine.player(.playing) == .none)
        #expect(machine.state == .paused)
        // ...but a change MPD reports is a newer command.
        #expect(machine.player(.paused) == .none)
        #expect(machine.reason == .player(.paused))
        #expect(machine.player(.playing) == .play(.player(.playing)))
        #expect(machine.user(.stop) == .stop(.user(.stop)))
        #expect(machine.player(.stopped) == .none)
        #expect(machine.state == .stopped)
    }

    @Test func userPlayWorksWithMPDEvenWithoutInput() {
        var machine = Machine(idleAfter: .seconds(10), clock: clock)
        _ = machine.player(.stopped)
        #expect(machine.user(.play) == .play(.user(.play)))
    }

    @Test func losingMPDHandsBackToTheAudio() {
        var machine = playing()
        _ = machine.player(.playing)
        _ = silence(&machine, for: .seconds(20))
        #expect(machine.state == .playing)
        #expect(machine.playerLost() == .none)
        #expect(machine.reason == .playerLost)
        #expect(!machine.isPlayerConnected)
        // A full idle_after from the loss, then silence stops the show.
        #expect(silence(&machine, for: .milliseconds(9_900)).isEmpty)
        #expect(silence(&machine, for: .milliseconds(100)) == [.stop(.silence(seconds: 10))])
        #expect(machine.playerLost() == .none)
    }

    @Test func losingMPDWhileItHadStoppedLetsSoundPlay() {
        var machine = playing()
        _ = machine.player(.stopped)
        #expect(machine.audio(hasSound: true) == .none)
        _ = machine.playerLost()
        #expect(machine.audio(hasSound: true) == .play(.soundReturned))
    }

    @Test func losingMPDKeepsAUserHold() {
        var machine = playing()
        _ = machine.player(.playing)
        _ = machine.user(.pause)
        _ = machine.playerLost()
        #expect(machine.reason == .user(.pause))
        #expect(machine.audio(hasSound: true) == .none)
        #expect(machine.state == .paused)
    }

    @Test func reconnectedMPDAppliesItsStateAgain() {
        var machine = playing()
        _ = machine.player(.playing)
        _ = machine.playerLost()
        _ = silence(&machine, for: .seconds(10))
        #expect(machine.state == .stopped)
        #expect(machine.player(.playing) == .play(.player(.playing)))
    }

    @Test func onlyAnAutomaticStopListensForSound() {
        var machine = playing()
        #expect(!machine.wakesOnSound)
        _ = silence(&machine, for: .seconds(10))
        #expect(machine.wakesOnSound)
        _ = machine.user(.stop)
        #expect(!machine.wakesOnSound)
        _ = machine.user(.play)
        _ = machine.player(.stopped)
        #expect(!machine.wakesOnSound)
        _ = machine.playerLost()
        #expect(machine.wakesOnSound)
        _ = machine.inputEnded()
        #expect(!machine.wakesOnSound)
    }

    // MARK: Reasons

    @Test func reasonsReadWellInALog() {
        #expect(PlaybackReason.silence(seconds: 10.04).description == "silence for 10.0 s")
        #expect(PlaybackReason.user(.toggle).description == "user pressed toggle")
        #expect(PlaybackReason.player(.paused).description == "the player reports paused")
        #expect(PlaybackReason.inputEnded.description == "input ended")
    }
}
