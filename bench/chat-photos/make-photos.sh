#!/bin/bash
# The test photos of bench/chat-photos/walk.ts, made with ImageMagick 6 (convert): phone photos of
# terminals showing avrdude, sdcc and ngspice errors, and two part labels; tilted, blurred, noisy, JPEG.
#   bash bench/chat-photos/make-photos.sh [out-dir]
# term NAME BG FG ROT BLUR NOISE QUALITY lines...
set -e
out=${1:-/tmp/chat-photos}; mkdir -p "$out"; txt=$(mktemp -d)
term() {
  name=$1; bg=$2; fg=$3; rot=$4; blur=$5; noise=$6; q=$7; shift 7
  printf '%s\n' "$@" > $txt/$name.txt
  convert -size 1400x -background "$bg" -fill "$fg" -font DejaVu-Sans-Mono -pointsize 26 -interline-spacing 6 \
    caption:"$(sed "s/%/%%/g" $txt/$name.txt)" -bordercolor "$bg" -border 40x50 \
    -bordercolor '#3a3a3a' -border 60x60 \
    -virtual-pixel background -background '#2b2b2b' -rotate $rot \
    -attenuate $noise +noise Gaussian -blur 0x$blur \
    -resize 1600x1200 -gravity center -extent 1600x1200 -quality $q $out/$name.jpg
}
plate() {
  name=$1; rot=$2; blur=$3; noise=$4; shift 4
  printf '%s\n' "$@" > $txt/$name.txt
  convert -size 900x -background '#f2efe6' -fill '#151515' -font DejaVu-Sans-Bold -pointsize 44 -interline-spacing 10 \
    caption:"$(sed "s/%/%%/g" $txt/$name.txt)" -bordercolor '#f2efe6' -border 50x40 -bordercolor '#1a3d7a' -border 6x6 \
    -bordercolor '#6b7076' -border 250x250 -virtual-pixel background -background '#6b7076' -rotate $rot \
    -attenuate $noise +noise Gaussian -blur 0x$blur -resize 1600x1200 -gravity center -extent 1600x1200 -quality 72 $out/$name.jpg
}
term avr-sync '#101010' '#d0d0d0' 3 0.9 0.6 72 \
  '$ avrdude -c arduino -p m328p -P /dev/ttyUSB0 -b 115200 -U flash:w:blink.hex' \
  'avrdude: stk500_recv(): programmer is not responding' \
  'avrdude: stk500_getsync() attempt 1 of 10: not in sync: resp=0x00' \
  'avrdude: stk500_recv(): programmer is not responding' \
  'avrdude: stk500_getsync() attempt 2 of 10: not in sync: resp=0x00' \
  '' 'avrdude done.  Thank you.'
term avr-signature '#0c0c0c' '#e6e6e6' -2.5 1.0 0.7 70 \
  '$ avrdude -c usbasp -p m328p -U flash:w:main.hex' \
  'avrdude: AVR device initialized and ready to accept instructions' \
  'Reading | ################################################## | 100% 0.01s' \
  'avrdude: Device signature = 0x000000' \
  'avrdude: Yikes!  Invalid device signature.' \
  '         Double check connections and try again, or use -F to override' \
  '         this check.' '' 'avrdude done.  Thank you.'
term avr-usb '#ffffff' '#202020' 2 1.2 0.5 70 \
  '$ avrdude -c usbasp -p m8 -P usb -t' \
  "avrdude: usbdev_open(): did not find any (matching) USB device \"usb\"" \
  "avrdude: error: could not find USB device with vid=0x16c0 pid=0x5dc vendor='www.fischl.de' product='USBasp'" \
  '' 'avrdude done.  Thank you.'
term sdcc-evelyn '#1b1b1b' '#dcdcdc' -3 0.8 0.6 75 \
  '$ sdcc -mmcs51 --std-c99 main.c' \
  'main.c:42: warning 110: conditional flow changed by optimizer: so said EVELYN the modified DOG' \
  'main.c:57: warning 158: overflow in implicit constant conversion' \
  '$ '
term sdcc-iram '#ffffff' '#111111' 1.5 1.3 0.6 68 \
  '$ sdcc -mmcs51 main.c uart.c' \
  '?ASlink-Warning-Could not get 96 consecutive bytes in internal RAM for area DSEG.' \
  '?ASlink-Error-Insufficient space in data memory. 18 bytes short.' \
  'make: *** [Makefile:12: main.ihx] Error 1'
term spice-singular '#000000' '#c8c8c8' 2.5 1.0 0.7 70 \
  'ngspice 1 -> run' \
  'Warning: singular matrix:  check node n3' \
  '' 'Note: Starting dynamic gmin stepping' \
  'Warning: Dynamic gmin stepping failed' \
  'Note: Starting true gmin stepping' 'Warning: True gmin stepping failed' \
  'Note: Starting source stepping' 'Warning: source stepping failed' \
  'Note: Transient op started' 'Note: Transient op failed' \
  'Error: Transient op failed, timestep too small' 'run simulation(s) aborted'
term spice-timestep '#0a0a0a' '#d8d8d8' -2 1.1 0.6 72 \
  'ngspice 2 -> tran 1u 10m' \
  'doAnalyses: TRAN:  Timestep too small; time = 0.00152357, timestep = 1.25e-20: trouble with node "out"' \
  '' 'tran simulation(s) aborted' 'ngspice 3 ->'
plate label-328p 4 1.0 0.6 \
  'NANO V3.0 CLONE' 'MCU: ATmega328P' 'CLOCK: 16 MHz' 'USB: CH340G' 'BOOTLOADER: OPTIBOOT'
plate label-usbasp -3 1.2 0.7 \
  'USBASP V2.0' 'AVR PROGRAMMER' 'MCU ATMEGA8A' 'P/N USBASP-V20' 'S/N 20231104'
