# Shared by the benchmarks that run cava beside lightshow. Source it; it defines functions only.

# write_cava_raw_config CONFIG FIFO TARGET
# cava reading 44.1 kHz s16 PCM from FIFO, mono, 3 bars at 60 fps, raw ascii 0…1000 ("B;M;T;\n") to TARGET;
# the rest is cava's default. sleep_timer is off so cava keeps draining its fifo.
write_cava_raw_config() {
    write_cava_config "$1" "method = fifo
source = $2
sample_rate = 44100
sample_bits = 16" "$3"
}

# write_cava_pulse_config CONFIG SOURCE TARGET
# The same output, with cava recording the PulseAudio source SOURCE (e.g. a sink's monitor).
write_cava_pulse_config() {
    write_cava_config "$1" "method = pulse
source = $2" "$3"
}

# write_cava_config CONFIG INPUT_SECTION_LINES TARGET
write_cava_config() {
    cat > "$1" <<CONF
[general]
framerate = 60
bars = 3
sleep_timer = 0
[input]
$2
[output]
method = raw
channels = mono
mono_option = average
raw_target = $3
data_format = ascii
ascii_max_range = 1000
bar_delimiter = 59
frame_delimiter = 10
CONF
}

# write_cava_terminal_config CONFIG FIFO
# cava drawing its 3 bars at 60 fps in the terminal it runs in (noncurses), from 44.1 kHz s16 PCM in FIFO.
write_cava_terminal_config() {
    cat > "$1" <<CONF
[general]
framerate = 60
bars = 3
[input]
method = fifo
source = $2
sample_rate = 44100
sample_bits = 16
[output]
method = noncurses
CONF
}
