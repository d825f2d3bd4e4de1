# Shared by the benchmarks that show the lights to a terminal (watch-vs-cava, desktop-cost). Source it; it defines
# functions only.

# write_music_pcm WORKDIR SECONDS OUT
# Music-like input as 44.1 kHz s16 stereo raw PCM in OUT: a pulsing bass, a mid chord and treble noise bursts, each
# band moving all the time. WORKDIR holds the parts.
write_music_pcm() {
    sox -n -r 44100 -c 1 "$1/bass.wav" synth "$2" sine 60 tremolo 2 90
    sox -n -r 44100 -c 1 "$1/mid.wav" synth "$2" sine 600 sine 900 tremolo 3 70
    sox -n -r 44100 -c 1 "$1/treble.wav" synth "$2" whitenoise vol 0.3 highpass 5000 tremolo 5 90
    sox -m -v 0.4 "$1/bass.wav" -v 0.4 "$1/mid.wav" -v 0.4 "$1/treble.wav" -b 16 -e signed -c 2 -t raw "$3"
}
