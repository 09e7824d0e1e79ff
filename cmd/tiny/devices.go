package main

// Devices register themselves in init; the command links the ones it offers.
import _ "tiny/devices/cpu"
