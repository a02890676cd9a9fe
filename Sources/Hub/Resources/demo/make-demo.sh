#!/bin/sh
# Rebuilds demo.h264, the demo camera's clip: 8 s (200 frames) at 25 fps, 1280x720, H.264 Main, an IDR with
# SPS/PPS every 50 frames, no B-frames, ~1 Mbit/s. Every moving part has a period of 200 frames, so the clip
# loops seamlessly. Needs ffmpeg with libx264 and the DejaVu fonts. Writes into the current directory:
#   cd "$(mktemp -d)" && sh /path/to/make-demo.sh && cp demo.h264 /path/to/Sources/Hub/Resources/demo/
set -e
F=/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf
# the dial: a dark translucent disc with 12 ticks (static, drawn once)
ffmpeg -v error -y -f lavfi -i "color=c=black:s=400x400,format=rgba" -frames:v 1 -vf "geq=r='230':g='230':b='235':a='if(lt(hypot(X-200,Y-200),196), if(between(hypot(X-200,Y-200),150,180)*lt(abs(mod(atan2(Y-200,X-200)+2*PI+PI/12,PI/6)-PI/12),0.035),255,120), 0)'" dial.png
# a hand: a bar from the centre to the top of a 400x400 canvas (rotated per frame)
ffmpeg -v error -y -f lavfi -i "color=c=black:s=400x400,format=rgba" -frames:v 1 -vf "geq=r='255':g='200':b='40':a='if(between(X,195,205)*between(Y,40,205),255,0)'" long.png
ffmpeg -v error -y -f lavfi -i "color=c=black:s=400x400,format=rgba" -frames:v 1 -vf "geq=r='240':g='60':b='60':a='if(between(X,197,203)*between(Y,20,210)+lt(hypot(X-200,Y-200),12),255,0)'" short.png
# a ball
ffmpeg -v error -y -f lavfi -i "color=c=black:s=90x90,format=rgba" -frames:v 1 -vf "geq=r='40+2*X':g='220':b='255-2*Y':a='if(lt(hypot(X-45,Y-45),44),255,0)'" ball.png
ffmpeg -v error -y \
  -f lavfi -i "nullsrc=s=320x180:r=25:d=8,geq=r='110+70*sin(2*PI*(X/W+N/200))':g='100+60*sin(2*PI*(Y/H-N/100)+1)':b='150+70*sin(2*PI*((X+Y)/(W+H)+N/200)+2)'" \
  -loop 1 -framerate 25 -i dial.png -loop 1 -framerate 25 -i long.png -loop 1 -framerate 25 -i short.png -loop 1 -framerate 25 -i ball.png \
  -filter_complex "
    [0]scale=1280:720:flags=bicubic,format=yuv420p[bg];
    [2]rotate=a='2*PI*n/200':c=none:ow=400:oh=400[h1];
    [3]rotate=a='2*PI*n/50':c=none:ow=400:oh=400[h2];
    [bg][1]overlay=x=440:y=160:shortest=1[a];
    [a][h1]overlay=x=440:y=160:shortest=1[b];
    [b][h2]overlay=x=440:y=160:shortest=1[c];
    [c][4]overlay=x='595+520*sin(2*PI*n/200)':y='315-220*cos(2*PI*n/200)':shortest=1[d];
    [d]drawtext=fontfile=$F:text='WatchBox demo camera':fontsize=44:fontcolor=white:borderw=3:bordercolor=black@0.6:x=40:y=36,
       drawtext=fontfile=$F:text='no camera yet? add one in the web app':fontsize=26:fontcolor=white:borderw=2:bordercolor=black@0.6:x=40:y=h-62[v]" \
  -map "[v]" -frames:v 200 -an \
  -c:v libx264 -profile:v main -preset slow -pix_fmt yuv420p -b:v 1000k -maxrate 1300k -bufsize 2000k \
  -g 50 -bf 0 -sc_threshold 0 -x264-params keyint=50:min-keyint=50:scenecut=0:repeat-headers=1 \
  -bsf:v filter_units=remove_types=6 -f h264 demo.h264
