// Real RTP packets from software none of us wrote, and the AAC frames that went into them.
//
// Generated on the development machine with Debian's GStreamer 1.22 and ffmpeg 5.1:
//
//   gst-launch-1.0 -v audiotestsrc num-buffers=12 samplesperbuffer=1024 wave=sine freq=440 \
//     ! audio/x-raw,rate=16000,channels=1 ! avenc_aac bitrate=32000 ! tee name=t \
//     t. ! queue ! rtpmp4gpay pt=97 ! rtpstreampay ! filesink location=hbr16k.rtp \
//     t. ! queue ! aacparse ! audio/mpeg,stream-format=adts ! filesink location=hbr16k.aac
//   (caps: clock-rate=16000, encoding-params=1, streamtype=5, profile-level-id=2, mode=AAC-hbr,
//    config=140856e500, sizelength=13, indexlength=3, indexdeltalength=3)
//
//   gst-launch-1.0 -v audiotestsrc num-buffers=8 samplesperbuffer=1024 wave=pink-noise \
//     ! audio/x-raw,rate=48000,channels=2 ! avenc_aac bitrate=64000 ! tee name=t \
//     t. ! queue ! rtpmp4gpay pt=97 mtu=80 ! rtpstreampay ! filesink location=frag48k.rtp \
//     t. ! queue ! aacparse ! audio/mpeg,stream-format=adts ! filesink location=frag48k.aac
//   (caps: clock-rate=48000, encoding-params=2, config=119056e500, otherwise as above)
//
//   ffmpeg -f lavfi -i sine=frequency=440:sample_rate=44100 -t 0.5 -map 0 -c:a aac -b:a 48k -ac 2 \
//     -flags +bitexact -max_delay 200000 \
//     -f tee "[f=rtp:max_delay=200000]rtp://127.0.0.1:5006?pkt_size=1200|[f=adts]ffmulti.aac"
//   with a UDP socket on 127.0.0.1:5006 writing each datagram with a 16-bit length (RFC 4571).
//   (SDP, from the same command with -f rtp -sdp_file: a=rtpmap:97 MPEG4-GENERIC/44100/2,
//    a=fmtp:97 profile-level-id=1;mode=AAC-hbr;sizelength=13;indexlength=3;indexdeltalength=3; config=121056E500)
//
// ffprobe on the .aac files: aac (LC), 16000 Hz mono / 48000 Hz stereo / 44100 Hz stereo.
// The configs end in ffmpeg's backward-compatible sync extension 0x2B7 with sbrPresentFlag 0.

enum Fixtures {
    /// rtpmp4gpay, AAC LC 16 kHz mono: one AU per packet (RFC 4571 framing).
    static let gstreamer16kMonoRTP = """
        AUiA4V1xAbDd6OIjvMAAEAnA3gIATGF2YzU5LjM3LjEwMAACYKtaKmR9RYWbynvnx5xxJkkZEkcoSPkEf/iPyX3H8l9x7K7J7i7p
        xLFcSzDT1O21ctNXLi2UcxaR6S7Bjqkf+lCDJjNyfR+g/j9O3G5fQ+rdV7VjcNYa9OyUi2eW2FxVls07Xp2vTtekZKuz1dnpGSYs
        mLIyyYsmLJiaYsmLJiyYsmLJiyYsmJpKaFGFGFGFGFGFGFGFGFGFGFGFGFGFGFGFGFGFGFGFGFGFGFGFGFGFGFGFGFGFGFGnnnnn
        nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnJkOQIcmQ5AhyZDkCHJkOQIcmQxAhyZDECGJkMQKYmUxApiZTECmJ
        lMQKYmUxApiZTECmJlMQKYmUxApiZSkCmJlKQKXgAVKA4V1yAbDh6OIjvMAAEAoQAQye2ssy512ozIpptVWSXTaqskul//n/+31N
        Xd6vh168/p//W/9/1+tAvWq/p//V/8/1+OAXrVfx//f/8/9POgXrQSN0SHPaV5PPPPPPPPPPPc7z1y+rZS89z76kGNCEBC8KpS6k
        UmCUjRS1NlprnY3WlutNc7HKkyqVGjSRSlI0Wq6Xamul66a2dnZnZ3Z25p5/pzvfL5c088/0ee+Xyn5p51fTnee+Xy5p5551D6PP
        MHy+U84z95Ln33bP3ooQAImEQbAxoVaBZGWppsZr0jZZKea2aRsslZp1sxasmzXrw7sccMa6XwxrbHDFwkJBgYJCQkJCQYGBgkJC
        QkJCQYGBgkJCQkJCSoMDAwMEhISEhISVuuDAwNecJCQkq/cODAB30oVhbYmesM81bYY4Y4MDAwMDAwMDAwMDAwMDAwMDPwElgOFd
        cwGw5ejiI7zAABAIqAD49a1UZhFjQvt77r8/w/29nFpKbklyRLklyS5IPcYd6181IcR3D9tyaC2aZiq5ip7SXcXcXZWamthm3cP2
        1hduUZNbnYeLRZqJIJdwOwpifdy9k9q/e9Zyl9Es3HurdW2rKn53I4nE4mwxpKBqSnp6OVFImWrVq1wc2xxxxZAf394T/Hw2n394
        T/Hw2n394T/Hw2n394T/Hw2Pf3IZPgw9/ch8fBh7+8I+Pgw9/chk+DD39yGT4MPf3hHx8GHv7wj4+DD394R8fBh7+5D4+DD39yGT
        4MPf3hHx8Nj39yHx8Nj394R8fBh7+8I+Pgw9/ch8fDY9/eEfHwYe/uQ+Pgw9/ch8fAHv7gZPgDP7gZPgDP7gZOAA/oDhXXQBsOno
        4iO8wAAQB3AA5DQtNESuiQWhILvxqp//m5//+TiX4lpIkkRJEj4mpqx9S+o/UvqNtWzbVstTS1NM9TzT1s09bOJZh42410c6ABRl
        ElAAVAD893To62dqxM9O4rEz07PTrZq2atmrZq2MhISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISE
        hISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISEnAkJCQkJCQmYJCQk
        JCQkJSzBM0xzXr10UUUUUUUUUUUcANaA4V11AbDt6OIjvMAAEAYwAOA1rRRmMT9Qeqqv/8/8f/7uvLV73JOPEISRIp+gB2VzTzV1
        T4t1z1t2bG0a1dVtXbZ1/JGS9Sbv1BqPUG736AJPGOgVwB8P0zP7x0/PNLvHk+6c31Dx+S5PRaO6vVVq1VhoWmpX59fn2aSaSaRn
        Z2dnZ2dnZ2dnZ2emumumt5555555555555555555555555555555555555555555555555555555555555555555555555555555
        555555555555557gAQeA4V12AbDx6OIjvMAAEAe4ANg1rZQ0UytQ34rL//19///9deZvKXlIjyhE5QEAPuPyX5W0gbx5+5F765Dk
        TI+ZLjyxrveGW9Wbz6YrcFaA8bvkAryUJuAhVQC6xe2cz6I5n0Rh9KcP1Znu+Pn+7Of94a7yx3PnGz7hq/oL++v0yVMKMKMKMDAw
        MDAwMDAwNLLLLLLLLLLLLLLLLLLLLLLLLLLLLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLP
        LPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLOsLCwsLCwsLCwsLCwsLCwsLCwsLHAELgOFddwGw9ejiI7zAABAH2ADiNK4J
        LSkJWZj//F3//t44vV147kkiRJJJKfMiag/O/nvzv4L6j9y+4/cu4e4vOfWuNeYuYfOtw8xdu+dfC/Xu4Z7AFKdh8lrwAiAX+r67
        zF+B9a5h0l9x865h427h5i410lpHEu4eNuNdJaRzFxrxtsXSWYcxWzbVOz1PM9JUyVMlTAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwM
        DAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMbllliiii
        iiiiiiiiiRFFFFFFFFFFEiKKJEXAAQOA4V14AbD56OIjvMAAEAeYAOA1rTRmOSGIQdQd5j/+t+3//zXHm5Oe74idkRPMOX4AHave
        XePxXsPg3xvtWOc5Zx01eubs26iyTqbdvQXQPkXQMbADb+LtYs1ALUByfuzr/1vD8bk+a6lpN6998l03kWe5dy3WtZ0LQbloNyuN
        yrNarNarNajY7DHDHDF2dnZ2dnaumumumumumumumumumumumumumumeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee2+6
        y2+6y6y6y6y6y6y6y6y6y6y6y6y6y6y6y6y6y6y6y6y6y6y6y6y6y6y6y6y6y6y6yeeeeeeeefq4APyA4V15AbD96OIjvMAAEAdg
        ANY1rVRESzNQz0x//y/p//26nUeuJVEeawnt689qgYIHrXpvu3qPLX/XyiTw0ZfeWM96s4f3543zJ3/4x7f+U/L+mYcAer2/nuqj
        wBkwf8P4TjP+B8H0hr/wHF7Bk/oPU+0b/sGZ5hh7ZR0FHAQcAnmTbt26EhISEhITNNNNNNNNNNNNNNNNNNNNNPLPLPLPLPLPLPLP
        LPLCwsLCwsLCwsLCwsLCwsLCwsLCwsLC9XTq6dXTq6dXTq6dXSFhYWFhYWFyzyzyzyzyzyzyzyzhYWFhYWFhYWFhYWFhYWFhYWFh
        YWFhYWFhYWFhYXgBMoDhXXoBsQHo4iO8wAAQCRAA4jWt7SI2kc3lV//kf///ia4letdx7TvqVIkjmEj2IPz35389+B0lpHSWkfOv
        hfkvke3u3fhvgfTvgfsX6n6V9h+GpwAe51DUgFQA+C7dz9cuDA+w+ncY8Za9z9cvGW4c/Yjc1O8xbh3FpHP2I6Sz7iWI4lbM9TzG
        UYwaC44Uuz44Y4Y4M7Ozs7Ozs7Oz44Y4Y4TSY4Y4YyTSM7Ozs80k0k0k0k0k0k0k0k0jOzs7OzzSM7PM7PNJNJNJNJM7Ozs7Ozs7
        PNJM8zs7Ozs80k0k0k0k0kzs80k0k0k0k0k0k0k1U0k0k0jOzs7Ojs9FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF
        FFFFFFFFFFFFFFFFFFFFFFFFHAD2gOFdewGxBejiI7zAABAHMADiNa1UVjk/TJ4y8//5fP//fq/K2+ZOE5ESJAfaAdrd095d4/av
        lfw34Wysc460LVV43lnHnblHzKXQcC6t4FVoA4fyNCRNsKChgb51FknfW9c3XryLPcutPyXlvZuW61rOhaDcrjWqzcrjWqzWqzHR
        sdGxzXHDHDHBnZ2dnZ2dnZ2emumumumumumumumumumumt555555555555555555555555555555555555555555555555555555
        5555555555555555555555555555555555555555555555555555557gASuA4V18AbEJ6OIjvMAAEAjYANo1rXQ01o3Obyv/7v9v
        //+utdZ41rHXYIQQggIKdpbIulI7pS+88WHlDRevLnyhn/XmU9ebj4w3HxhpOIgNWiyBOU2KVsgH6f1jjfENx4hT8YbjxC56c5Xw
        Gd5Cz1zlfAcHkMnXHtgzSJxL169evZgxuWWWWWWX5H8j+RyyyyymQMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDA
        wMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDA
        wMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDA+AFUgOFdfQGxDejiI7zAABAKIAFKNa2tzRPxzpn9L/xV
        yvXM8yIiI3Agg9ASpkqbi3i7i3i6maapmmubebuwewvYfYvSflvFfBvwtTBOrTZwYHbecX82aKLQIvZuzeKtM5yvHTWmc3Xrm7Nt
        7Xre1Wx9HsfR6+nzRVRVRUgoKCgoKDRVRVRVRVRVRVRVRVRVRLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPL
        PLPLPLPLPLPLPLPLPLPLPLPLPLPLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsL
        CwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsL
        CwsLCwsLCwsLwA==
        """

    /// What avenc_aac gave rtpmp4gpay for gstreamer16kMonoRTP, through aacparse as ADTS.
    static let gstreamer16kMonoADTS = """
        //FicCf//N4CAExhdmM1OS4zNy4xMDAAAmCrWipkfUWFm8p758eccSZJGRJHKEj5BH/4j8l9x/Jfceyuye4u6cSxXEsw09TttXLT
        Vy4tlHMWkekuwY6pH/pQgyYzcn0foP4/TtxuX0Pq3Ve1Y3DWGvTslItnlthcVZbNO16dr07XpGSrs9XZ6RkmLJiyMsmLJiyYmmLJ
        iyYsmLJiyYsmLJiaSmhRhRhRhRhRhRhRhRhRhRhRhRhRhRhRhRhRhRhRhRhRhRhRhRhRhRhRhRhRhRhRp5555555555555555555
        555555555555555555555555555555555yZDkCHJkOQIcmQ5AhyZDkCHJkMQIcmQxAhiZDECmJlMQKYmUxApiZTECmJlMQKYmUxA
        piZTECmJlMQKYmUpApiZSkCl4P/xYnApP/wBDJ7ayzLnXajMimm1VZJdNqqyS6X/+f/7fU1d3q+HXrz+n/9b/3/X60C9ar+n/9X/
        z/X44BetV/H/9//z/086BetBI3RIc9pXk88888888889zvPXL6tlLz3PvqQY0IQELwqlLqRSYJSNFLU2WmudjdaW601zscqTKpUa
        NJFKUjRarpdqa6XrprZ2dmdndnbmnn+nO98vlzTzz/R575fKfmnnV9Od575fLmnnnnUPo88wfL5TzjP3kuffds/eihAAiYRBsDGh
        VoFkZammxmvSNlkp5rZpGyyVmnWzFqybNevDuxxwxrpfDGtscMXCQkGBgkJCQkJBgYGCQkJCQkJBgYGCQkJCQkJKgwMDAwSEhISE
        hJW64MDA15wkJCSr9w4MAHfShWFtiZ6wzzVthjhjgwMDAwMDAwMDAwMDAwMDAwM///FicCOf/AD49a1UZhFjQvt77r8/w/29nFpK
        bklyRLklyS5IPcYd6181IcR3D9tyaC2aZiq5ip7SXcXcXZWamthm3cP21hduUZNbnYeLRZqJIJdwOwpifdy9k9q/e9Zyl9Es3Hur
        dW2rKn53I4nE4mwxpKBqSnp6OVFImWrVq1wc2xxxxZAf394T/Hw2n394T/Hw2n394T/Hw2n394T/Hw2Pf3IZPgw9/ch8fBh7+8I+
        Pgw9/chk+DD39yGT4MPf3hHx8GHv7wj4+DD394R8fBh7+5D4+DD39yGT4MPf3hHx8Nj39yHx8Nj394R8fBh7+8I+Pgw9/ch8fDY9
        /eEfHwYe/uQ+Pgw9/ch8fAHv7gZPgDP7gZPgDP7gZOD/8WJwHr/8AOQ0LTRErokFoSC78aqf/5uf//k4l+JaSJJESRI+JqasfUvq
        P1L6jbVs21bLU0tTTPU809bNPWziWYeNuNdHOgAUZRJQAFQA/Pd06OtnasTPTuKxM9Oz062atmrZq2atjISEhISEhISEhISEhISE
        hISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISEhISE
        hISEhISEhISEhISEhISEhISEhJwJCQkJCQkJmCQkJCQkJCUswTNMc169dFFFFFFFFFFFHP/xYnAZv/wA4DWtFGYxP1B6qq//z/x/
        /u68tXvck48QhJEin6AHZXNPNXVPi3XPW3ZsbRrV1W1dtnX8kZL1Ju/UGo9QbvfoAk8Y6BXAHw/TM/vHT880u8eT7pzfUPH5Lk9F
        o7q9VWrVWGhaalfn1+fZpJpJpGdnZ2dnZ2dnZ2dnZ6a6a6a3nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn
        nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnuD/8WJwH9/8ANg1rZQ0UytQ34rL//19///9deZvKXlIjyhE5QEAPuPyX5W0
        gbx5+5F765DkTI+ZLjyxrveGW9Wbz6YrcFaA8bvkAryUJuAhVQC6xe2cz6I5n0Rh9KcP1Znu+Pn+7Of94a7yx3PnGz7hq/oL++v0
        yVMKMKMKMDAwMDAwMDAwNLLLLLLLLLLLLLLLLLLLLLLLLLLLLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLP
        LPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLPLOsLCwsLCwsLCwsLCwsLCwsLCwsLHP/xYnAgX/wA4jSuCS0p
        CVmY//xd//7eOL1deO5JIkSSSSnzImoPzv5787+C+o/cvuP3LuHuLzn1rjXmLmHzrcPMXbvnXwv17uGewBSnYfJa8AIgF/q+u8xf
        gfWuYdJfcfOuYeNu4eYuNdJaRxLuHjbjXSWkcxca8bbF0lmHMVs21Ts9TzPSVMlTJUwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwM
        DAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDG5ZZYoooooo
        ooooookRRRRRRRRRRRIiiiRFwP/xYnAfX/wA4DWtNGY5IYhB1B3mP/637f//Ncebk57viJ2RE8w5fgAdq95d4/Few+DfG+1Y5zln
        HTV65uzbqLJOpt29BdA+RdAxsANv4u1izUAtQHJ+7Ov/W8PxuT5rqWk3r33yXTeRZ7l3Lda1nQtBuWg3K43Ks1qs1qs1qNjsMcMc
        MXZ2dnZ2dq6a6a6a6a6a6a6a6a6a6a6a6a6a6Z555555555555555555555555555555555555555557b7rLb7rLrLrLrLrLrLrL
        rLrLrLrLrLrLrLrLrLrLrLrLrLrLrLrLrLrLrLrLrLrLrLrJ55555555+rj/8WJwHn/8ANY1rVRESzNQz0x//y/p//26nUeuJVEe
        awnt689qgYIHrXpvu3qPLX/XyiTw0ZfeWM96s4f3543zJ3/4x7f+U/L+mYcAer2/nuqjwBkwf8P4TjP+B8H0hr/wHF7Bk/oPU+0b
        /sGZ5hh7ZR0FHAQcAnmTbt26EhISEhITNNNNNNNNNNNNNNNNNNNNNPLPLPLPLPLPLPLPLPLCwsLCwsLCwsLCwsLCwsLCwsLCwsLC
        9XTq6dXTq6dXTq6dXSFhYWFhYWFyzyzyzyzyzyzyzyzhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYWFhYXj/8WJwJT/8AOI1re0i
        NpHN5Vf/5H///4muJXrXce076lSJI5hI9iD89+d/PfgdJaR0lpHzr4X5L5Ht7t34b4H074H7F+p+lfYfhqcAHudQ1IBUAPgu3c/X
        LgwPsPp3GPGWvc/XLxluHP2I3NTvMW4dxaRz9iOks+4liOJWzPU8xlGMGguOFLs+OGOGODOzs7Ozs7Ozs+OGOGOE0mOGOGMk0jOz
        s7PNJNJNJNJNJNJNJNJNIzs7Ozs80jOzzOzzSTSTSTSTOzs7Ozs7OzzSTPM7Ozs7PNJNJNJNJNJM7PNJNJNJNJNJNJNJNVNJNJNI
        zs7Ozo7PRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRz/8WJwHb/8AOI1rVRWOT9M
        njLz//l8//9+r8rb5k4TkRIkB9oB2t3T3l3j9q+V/DfhbKxzjrQtVXjeWceduUfMpdBwLq3gVWgDh/I0JE2woKGBvnUWSd9b1zde
        vIs9y60/JeW9m5brWs6FoNyuNarNyuNarNarMdGx0bHNccMcMcGdnZ2dnZ2dnZ6a6a6a6a6a6a6a6a6a6a6a3nnnnnnnnnnnnnnn
        nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnuD/8WJw
        JF/8ANo1rXQ01o3Obyv/7v9v//+utdZ41rHXYIQQggIKdpbIulI7pS+88WHlDRevLnyhn/XmU9ebj4w3HxhpOIgNWiyBOU2KVsgH
        6f1jjfENx4hT8YbjxC56c5XwGd5Cz1zlfAcHkMnXHtgzSJxL169evZgxuWWWWWWX5H8j+RyyyyymQMDAwMDAwMDAwMDAwMDAwMDA
        wMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDA
        wMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDA+P/xYnApf/wBSjWtrc0T
        8c6Z/S/8Vcr1zPMiIiNwIIPQEqZKm4t4u4t4upmmqZprm3m7sHsL2H2L0n5bxXwb8LUwTq02cGB23nF/Nmii0CL2bs3irTOcrx01
        pnN165uzbe163tVsfR7H0evp80VUVUVIKCgoKCg0VUVUVUVUVUVUVUVUVUSzyzyzyzyzyzyzyzyzyzyzyzyzyzyzyzyzyzyzyzyz
        yzyzyzyzyzyzyzyzyzyzyzyzyzyzyzyzyzyzywsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsL
        CwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsLCwsL
        CwsLCwsLCwsLCwsLCwsLC8A=
        """

    /// rtpmp4gpay mtu=80, AAC LC 48 kHz stereo: every AU in 2 to 4 fragments (RFC 4571 framing).
    static let gstreamer48kStereoFragmentedRTP = """
        AFCAYVy5HiB/z1ZWWmYAEAQY3gIATGF2YzU5LjM3LjEwMABCUCpYGlNNQdE3O5uareqkqIrWU/9Vk3/mQVhZsuu2koCWVXjt2YOM
        JMRCoK5EPQBQgGFcuh4gf89WVlpmABAEGPMenyD6YYWUAKoMSvKYfKNcdgzPa+r0T69aJcsgrhnbfj9SonGdNN4dE7ndZpN2kM4y
        MkD43l4vAzAABgATAnYAE4DhXLseIH/PVlZaZgAQBBgBIcAAUIBhXLweIIPOVlZaZgAQBiAhSm1YDtlkerI9WS6T2b07s6z/n/46
        ySD/7//22aJH/6f/2zV83nA1TiWWmO6gSsy2iSIGxkaytsX1ciZan3szAFCAYVy9HiCDzlZWWmYAEAYgx7xj0s43mi10muIEwhB5
        ARs7UjUMQhxyO7CTrW3D7TbkG5JS97Kg1phfk8clUAVCPBL+QIFkbadkTKToQg+UPQBQgGFcvh4gg85WVlpmABAGIEq7ZZG/LI7n
        ZG/HrrVU+Ir/n/8Pbt0h/9//7t74XR/+f/9681N8bsAEganHAJAibdAAA+f3Z6R9Y3XzeAAABZoAFIDhXL8eIIPOVlZaZgAQBiAS
        JAAcAFCAYVzAHiCHzlZWWmYAEAQAIXjVVQ0pprDpX1n5xKrzO7lKuZrLfslH+atUHYbLmO5ew5T0h+hiI8K/bqx9vtYvdOIGIj9t
        aUVaap+Tm5cW/ABQgOFcwR4gh85WVlpmABAEACl77eNr38bTBrSYo4QurSK1njRWyYY9eJbtO01hkR003h0pr7ZklXxz1yTWJdQK
        5VRUigWVCACIACIAKNPcSHAAUIBhXMIeIIvPVlZaZgAQBJAhGNUVjSmmsOld+f4XkjUbY6m3FQWKj/uFj+Hojf0f6/2dx6vvzbZ/
        8/zecP93zP1j3v7I1dq7a2hAPlxvARXWAFCAYVzDHiCLz1ZWWmYAEASQMszDf576Mj/JftQrdNV8+bn6R9S5W9FJFN41niXhePS4
        PxCTm+1TMqisZzUOm8OlZ1/XNY49e29Vp3wSSCVKlwAigOFcxB4gi89WVlpmABAEkDcqQGCGgUdAAIjbARCElxKhPABQgGFcxR4g
        j85WVlpmABAF8CEY1UWNqaaw6V8cf1x3xWs6547nEUkf8qM/8uuYg6rx187LAPp3y2cROeAIKG1wihlPYGbnD0iLgiuJAAgJUHEA
        UIBhXMYeII/OVlZaZgAQBfA55Xt2OIEJ2MBsYGAXorHdfcy63a5olKScnypnfO5+N8HRJj5nGQMXyQgIxMIKKT4tMoqWxm9S6Jg6
        Ow6Vx1/XAE6A4VzHHiCPzlZWWmYAEAXwfOoVxiuK0ypcCgz/y1VWACCmpzwAAA0poEiASEWJBI2kESgLiY3183vEfk94K/dXi32V
        7VNG+44KHmS3gcAAUIBhXMgeIJPOVlZaZgAQBZghGNTtjZyG01h0rxr+q9bvfW7rVSqQhKof+17l0Oza3Hf/E+HcjvFx3wB2TnYJ
        WLuxIAnKtrQJKwOe6ZkHlVjgAFCAYVzJHiCTzlZWWmYAEAWYAjhv8VgCQIV+HjrLUWbRADwF1fxNdAokfLpIg+0+atI52Nj4PP92
        m69OxuPtgT1il5m01h0rN/or47mee5JnBgBDgOFcyh4gk85WVlpmABAFmC5CL3Jv/vrFwIzEYswBQASAAAFrXkATsDYxayidaA+l
        WsF+f0+5dv0lQoPMFX4v8LkIPABQgGFcyx4gl89WVlpmABAFOCEY1RWNKaaw6VP3//Y4178awmOt06QPBf/VSg9IVPK+d/yHNfAy
        b2ZTR+F/K/aw4z9AOWMVgIJr03+gdb45JjIAUIBhXMweIJfPVlZaZgAQBTjINgFLt3m5V+aE9fJOfY6/pYj9h6avAgM9rIzVKoO4
        /dP7l2A9jtuhsZ001h0p+P/wTrFaqpJ3xVWuCZB/5IUAADeA4VzNHiCXz1ZWWmYAEAU4HGPtrIgAAJBdcsvYJl4XZfm8uf8HLsLd
        XHtCk6ApG7i9O60j3qfgAFCAYVzOHiCbzlZWWmYAEAV4IRjVHZEgw9NYdKe39pMk3qmtySklQOZbP/JID0+ZRZj0zkINAhVj3Hvj
        bHbBYroXF3RhmPyn+ob7eCSQOO4/gABQgGFczx4gm85WVlpmABAFeKhgBYr9OFVqwcBNqqhlFSUlHlyXjR/3d/XzXO4LcHRYLmwV
        HcPknq3//Ug6WwyM4qLTWHSpx+yVeZ5ozW5rmakAP4DhXNAeIJvOVlZaZgAQBXgBvJk/71JQAGU3kANoAkAACWqlApGyAQ51FPHT
        uJ5b/LdVWH0rMouk4NvjJpupuABQgGFc0R4gn85WVlpmABAFQCEY1P2NnoXTWHSqfat8G+orLspdQXWKf97wgprBQe8jnnre0jOB
        C1uDnDgQmzU4xI1Y1yEKODgDVq1MwAdMYd4AUIBhXNIeIJ/OVlZaZgAQBUCZC9JZ29LVRa6mm1zsTuVzsAkYpIIO6/Heqs++I75/
        5Zv7Vt5eBP5VJIdRWM6aaw6V55/i8i9+ww1Ml1ApeY/6ADiA4VzTHiCfzlZWWmYAEAVA6VQABh4AAAAGiwt6nAGHe5TE5ozn9t+J
        1dfdMR/rLxZTVW1+p2Jxfw==
        """

    /// What avenc_aac gave rtpmp4gpay for gstreamer48kStereoFragmentedRTP, as ADTS.
    static let gstreamer48kStereoFragmentedADTS = """
        //FOsBFf/N4CAExhdmM1OS4zNy4xMDAAQlAqWBpTTUHRNzubmq3qpKiK1lP/VZN/5kFYWbLrtpKAllV47dmDjCTEQqCuRD3zHp8g
        +mGFlACqDErymHyjXHYMz2vq9E+vWiXLIK4Z234/UqJxnTTeHRO53WaTdpDOMjJA+N5eLwMwAAYAEwJ2ASHA//FOsBl//CFKbVgO
        2WR6sj1ZLpPZvTuzrP+f/jrJIP/v//bZokf/p//bNXzecDVOJZaY7qBKzLaJIgbGRrK2xfVyJlqfezPHvGPSzjeaLXSa4gTCEHkB
        GztSNQxCHHI7sJOtbcPtNuQbklL3sqDWmF+TxyVQBUI8Ev5AgWRtp2RMpOhCD5Q9Srtlkb8sjudkb8eutVT4iv+f/w9u3SH/3//u
        3vhdH/5//3rzU3xuwASBqccAkCJt0AAD5/dnpH1jdfN4AAAFmhIkABz/8U6wEP/8IXjVVQ0pprDpX1n5xKrzO7lKuZrLfslH+atU
        HYbLmO5ew5T0h+hiI8K/bqx9vtYvdOIGIj9taUVaap+Tm5cW/Cl77eNr38bTBrSYo4QurSK1njRWyYY9eJbtO01hkR003h0pr7Zk
        lXxz1yTWJdQK5VRUigWVCACIACIAKNPcSHD/8U6wEz/8IRjVFY0pprDpXfn+F5I1G2OptxUFio/7hY/h6I39H+v9ncer7822f/P8
        3nD/d8z9Y97+yNXau2toQD5cbwEV1jLMw3+e+jI/yX7UK3TVfPm5+kfUuVvRSRTeNZ4l4Xj0uD8Qk5vtUzKorGc1DpvDpWdf1zWO
        PXtvVad8EkglSpc3KkBghoFHQACI2wEQhJcSoTz/8U6wGL/8IRjVRY2pprDpXxx/XHfFazrnjucRSR/yoz/y65iDqvHXzssA+nfL
        ZxE54AgobXCKGU9gZucPSIuCK4kACAlQcTnle3Y4gQnYwGxgYBeisd19zLrdrmiUpJyfKmd87n43wdEmPmcZAxfJCAjEwgopPi0y
        ipbGb1LomDo7DpXHX9d86hXGK4rTKlwKDP/LVVYAIKanPAAADSmgSIBIRYkEjaQRKAuJjfXze8R+T3gr91eLfZXtU0b7jgoeZLeB
        wP/xTrAXX/whGNTtjZyG01h0rxr+q9bvfW7rVSqQhKof+17l0Oza3Hf/E+HcjvFx3wB2TnYJWLuxIAnKtrQJKwOe6ZkHlVjgAjhv
        8VgCQIV+HjrLUWbRADwF1fxNdAokfLpIg+0+atI52Nj4PP92m69OxuPtgT1il5m01h0rN/or47mee5JnBi5CL3Jv/vrFwIzEYswB
        QASAAAFrXkATsDYxayidaA+lWsF+f0+5dv0lQoPMFX4v8LkIPP/xTrAV3/whGNUVjSmmsOlT9//2ONe/GsJjrdOkDwX/1UoPSFTy
        vnf8hzXwMm9mU0fhfyv2sOM/QDljFYCCa9N/oHW+OSYyyDYBS7d5uVfmhPXyTn2Ov6WI/YemrwIDPayM1SqDuP3T+5dgPY7bobGd
        NNYdKfj/8E6xWqqSd8VVrgmQf+SFABxj7ayIAACQXXLL2CZeF2X5vLn/By7C3Vx7QpOgKRu4vTutI96n4P/xTrAW3/whGNUdkSDD
        01h0p7f2kyTeqa3JKSVA5ls/8kgPT5lFmPTOQg0CFWPce+NsdsFiuhcXdGGY/Kf6hvt4JJA47j+AqGAFiv04VWrBwE2qqGUVJSUe
        XJeNH/d39fNc7gtwdFgubBUdw+Serf/9SDpbDIziotNYdKnH7JV5nmjNbmuZqQG8mT/vUlAAZTeQA2gCQAAJaqUCkbIBDnUU8dO4
        nlv8t1VYfSsyi6Tg2+Mmm6m4//FOsBX//CEY1P2NnoXTWHSqfat8G+orLspdQXWKf97wgprBQe8jnnre0jOBC1uDnDgQmzU4xI1Y
        1yEKODgDVq1MwAdMYd6ZC9JZ29LVRa6mm1zsTuVzsAkYpIIO6/Heqs++I75/5Zv7Vt5eBP5VJIdRWM6aaw6V55/i8i9+ww1Ml1Ap
        eY/66VQABh4AAAAGiwt6nAGHe5TE5ozn9t+J1dfdMR/rLxZTVW1+p2Jxfw==
        """

    /// ffmpeg's RTP muxer with max_delay=200000: 8 AUs per packet (received on loopback, RFC 4571 framing).
    static let ffmpeg44kStereoAggregatedRTP = """
        A+SA4QU6VkCpRzu+oxUAgANYBdADKANYA3ADsAOoA8AhJw////hP0hIaMgryc1qzrdyS1y0jpk4BRlU1NKXqlqWof49LqcPBy/vw
        N9W+rIkRs2bBgagilNmzZtEiRSmzZsGRIkUsps2blRIpZZZYoooooop8caPwryc1qzrdyS1y0jpkAAAAAAAAByFIbP5+fn5NWRuq
        ynFlOLJcOf59tcNnjv/0/frjXGvt/4/nzxrjXr/8P588a60G/1tHR7IxEU1iHHsFJmCI67JkkwyfNpKnWbymNucBnOAwM7hMwMDO
        4SEgwM7hITUNIlBvS6C1OA4NSJw7zqfOXK9KVvShN7M3KElSWYNKEhJK8DShISTNCJdPnGooooNRRRRNDtQ70O9DvTn+fbXDZ47/
        9P3640b/8fz540P/w/nzxoAAAAAAAAABwCF3j///+BNFjRkHRPHPf7P39vi3lppLS5HJJ5uB339/dN2bM37+8JfHw2Pf3hHx8Nj3
        94R8fBh7+5D4+DD39yHx8GHuT/j8GTNDjR+HRPHPf7P39vi3lppLS5HJIuAAAAAAAABwIReP///4D/JiloxDomVz/8fp+P/PV6vU
        q649/Z6+tvClShlExMObh9o99gqKKKKKKKGULoMsywBuuATcAO4KAPdh+T9WLpqHpJv440fh0TK5/+P0/H/nq9XqVdce/s9fW3hR
        KAAAAAAAADghF4////gPdnKOjEOiHj/+Lv/7zXGpxjiq581z5x6itBCiQokKIxvPVcH1ya4TJ5555+aeedU851RQ1KnPCAOMgZ6j
        kAJn9DH7gMV6+1I9jjR+HRDx//F3/95rjU4xxVc+a5849RWgAAAAAAAA4CEXj///+A72dEmjRqHRFfb/+16//PzwvRa856c+afNX
        dWGl1Ol1OFxFNgaRtRr7XKUDfJgYGRSgwMbNyyxS0LXlrXiS09lLlvcIb6S3F2GeDRa/HGMMy7jjR+HRFfb/+16//PzwvRa856c+
        afNWqwAAAAAAAA4hF4////gO9IJJlIWjQOiR9v/72//f/TetXG/LecZvzT4qaoAhUkHAJ0ZFH2foQV6iEH/f7/el557SJGDtrQ6t
        l8SEG1nVyOcVwCKyral0TUM8Tkhsdxxo/Dokfb/+9v/3/03rVxvy3nGb80+KigAAAAAAAAchF4////iPEHRQn0cB0Rv9P/7Xj/z/
        xxcu4vGdPXxT3p8VoVVTVVM5lxa+rmG4nBISEhISEhITNTOU7omnUa6bFyVmF8VybDDXH6Ukogky3L1zRwmngeBxoxDojf6f/2vH
        /n/ji5dxeM6evinvT4rQAAAAAAAAAOAENoDhBTtWQMlHO76jFQCABDgD6AQQBAgECAQwBAAEUCEXj///+o8UlDGnQiHQwHROq/b/
        +9n/l/vM4i9OdePOVxT37r9UB4D/GVt8QfkM09ZcclEbMFkBgYePTPWSCL4ZwWjK1njRT6kpan1t68MJ9i3/RXUoio4AKIfVmCG5
        E8LwONCIdCIdE6r9v/72f+X+8ziL051485XFPfuv1QAAAAAAAAAAHCEXj///+I60dEijRwHRKft//dn/t9/bnpaJPHV+Pan1mvre
        hO2adnrLJIMENy+DDvcQN/VgYGBgYGHUAauiUSVB7s0oFK+3tfEmEoX64CSXGEdKy05NJti7LdRxoxDolP2//uz/2+/tz0tEnjq/
        HtT6zX1vQAAAAAAAAAOAIReP///4jnSyMZ9HAdEy/4/+v9f/x/nq5vS1ZqkU/Mv96gja1C3ek6UjVQ/B3o/68ThysLlOSHLhzEiI
        RVQwlIiIl9T6rDLbV17an0ivLknxNfDKdGzjpXo9P7wWnExhOY40Yh0TL/j/6/1//H+erm9LVmqRT8y/3qAAAAAAAAAA4CEXj///
        +I62ZikdSELR0HRNc/t//d4//LhWkkRUnPVPur/FQQZ23NYMKcpr2b7/lgz/ha93O0yvJieeeeS6vzSbt3Meg9lmSxkpRPPAEl6h
        vFCHkyDQZUNB9kVxsuQOPdRxoxDomuf2//u8f/lwrSSIqTnqn3V/ioAAAAAAAAADgCEXj///+o62hDinQiHQwHRFft/9PH/2++Z5
        ycKVnW60fXM/0yCDQV1Q2HP0G2LiMsDeLUYWrKvymb5SEzTTNFWmodiZGWYluFnnOi3R3xykC0qVeIUXB4xECexqp1HGhEOhEOiK
        /b/6eP/t98zzk4UrOt1o+uZ/pkAAAAAAAAAAByEXj///+I62dimzR0HROK/p//F4/8/88UrWdVmVxN9U+qn3zQYWKjeQUfJBjE9T
        oPMIr5Dft+e26y5SODI9atZKyrXWXlUlbfQ0t1h8iUU2+jdn2stUM6DQNKr/lzBu6eGhh1HGjEOicV/T/+Lx/5/54pWs6rMrib6p
        9VPvmgAAAAAAAAAcIReP///4jtaido4Dom+v0//uV/1/5XvWWL78ueD5qfVQQWDNLVTOFFQwbXVBjV/eg6XUsrTSm+Xy+Xy+Xy4w
        /LZsOg5PyGAmHEti1ayI4mOiC8dybMZwS2dY8mBCOm7DjRiHRN9fp//cr/r/yvessX35c8HzU+qgAAAAAAAAAOAhF4////qOlnYp
        GU2hEOhgOia/Pj/+z4/9/8dVJeXM1Sqs+ua/nNAxO7J7EHNWUfI+yj2pgzy8cs4WFhYWNLhJiSlBkFVB6sbUKhEqhmY6uQiBVETa
        JGgXZPSC1O0mlp0mLhgl0HGhEOhEOia/Pj/+z4/9/8dVJeXM1Sqs+ua/nNAAAAAAAAAAA4A=
        """

    /// The same encoder output written as ADTS by the tee muxer (23 frames; the RTP muxer sent the first 16).
    static let ffmpeg44kStereoAggregatedADTS = """
        //FQgA5f/CEnD///+E/SEhoyCvJzWrOt3JLXLSOmTgFGVTU0peqWpah/j0upw8HL+/A31b6siRGzZsGBqCKU2bNm0SJFKbNmwZEi
        RSymzZuVEilllliiiiiiinxxo/CvJzWrOt3JLXLSOmQAAAAAAAAH//FQgBg//CFIbP5+fn5NWRuqynFlOLJcOf59tcNnjv/0/frj
        XGvt/4/nzxrjXr/8P588a60G/1tHR7IxEU1iHHsFJmCI67JkkwyfNpKnWbymNucBnOAwM7hMwMDO4SEgwM7hITUNIlBvS6C1OA4N
        SJw7zqfOXK9KVvShN7M3KElSWYNKEhJK8DShISTNCJdPnGooooNRRRRNDtQ70O9DvTn+fbXDZ47/9P3640b/8fz540P/w/nzxoAA
        AAAAAAABwP/xUIANn/whd4////gTRY0ZB0Txz3+z9/b4t5aaS0uRySebgd9/f3TdmzN+/vCXx8Nj394R8fDY9/eEfHwYe/uQ+Pgw
        9/ch8fBh7k/4/BkzQ40fh0Txz3+z9/b4t5aaS0uRySLgAAAAAAAAcP/xUIAOX/whF4////gP8mKWjEOiZXP/x+n4/89Xq9Srrj39
        nr628KVKGUTEw5uH2j32CooooooooZQugyzLAG64BNwA7goA92H5P1Yumoekm/jjR+HRMrn/4/T8f+er1epV1x7+z19beFEoAAAA
        AAAAOP/xUIAOv/whF4////gPdnKOjEOiHj/+Lv/7zXGpxjiq581z5x6itBCiQokKIxvPVcH1ya4TJ5555+aeedU851RQ1KnPCAOM
        gZ6jkAJn9DH7gMV6+1I9jjR+HRDx//F3/95rjU4xxVc+a5849RWgAAAAAAAA4P/xUIAPv/whF4////gO9nRJo0ah0RX2//tev/z8
        8L0WvOenPmnzV3VhpdTpdThcRTYGkbUa+1ylA3yYGBkUoMDGzcssUtC15a14ktPZS5b3CG+ktxdhng0WvxxjDMu440fh0RX2//te
        v/z88L0WvOenPmnzVqsAAAAAAAAO//FQgA+f/CEXj///+A70gkmUhaNA6JH2//vb/9/9N61cb8t5xm/NPipqgCFSQcAnRkUfZ+hB
        XqIQf9/v96XnntIkYO2tDq2XxIQbWdXI5xXAIrKtqXRNQzxOSGx3HGj8OiR9v/72//f/TetXG/LecZvzT4qKAAAAAAAAB//xUIAP
        //whF4////iPEHRQn0cB0Rv9P/7Xj/z/xxcu4vGdPXxT3p8VoVVTVVM5lxa+rmG4nBISEhISEhITNTOU7omnUa6bFyVmF8VybDDX
        H6Ukogky3L1zRwmngeBxoxDojf6f/2vH/n/ji5dxeM6evinvT4rQAAAAAAAAAOD/8VCAEd/8IReP///6jxSUMadCIdDAdE6r9v/7
        2f+X+8ziL051485XFPfuv1QHgP8ZW3xB+QzT1lxyURswWQGBh49M9ZIIvhnBaMrWeNFPqSlqfW3rwwn2Lf9FdSiKjgAoh9WYIbkT
        wvA40Ih0Ih0Tqv2//vZ/5f7zOIvTnXjzlcU9+6/VAAAAAAAAAAAc//FQgBCf/CEXj///+I60dEijRwHRKft//dn/t9/bnpaJPHV+
        Pan1mvrehO2adnrLJIMENy+DDvcQN/VgYGBgYGHUAauiUSVB7s0oFK+3tfEmEoX64CSXGEdKy05NJti7LdRxoxDolP2//uz/2+/t
        z0tEnjq/HtT6zX1vQAAAAAAAAAOA//FQgBE//CEXj///+I50sjGfRwHRMv+P/r/X/8f56ub0tWapFPzL/eoI2tQt3pOlI1UPwd6P
        +vE4crC5Tkhy4cxIiEVUMJSIiJfU+qwy21de2p9Iry5J8TXwynRs46V6PT+8FpxMYTmONGIdEy/4/+v9f/x/nq5vS1ZqkU/Mv96g
        AAAAAAAAAOD/8VCAER/8IReP///4jrZmKR1IQtHQdE1z+3/93j/8uFaSRFSc9U+6v8VBBnbc1gwpymvZvv+WDP+Fr3c7TK8mJ555
        5Lq/NJu3cx6D2WZLGSlE88ASXqG8UIeTINBlQ0H2RXGy5A491HGjEOia5/b/+7x/+XCtJIipOeqfdX+KgAAAAAAAAAOA//FQgBEf
        /CEXj///+o62hDinQiHQwHRFft/9PH/2++Z5ycKVnW60fXM/0yCDQV1Q2HP0G2LiMsDeLUYWrKvymb5SEzTTNFWmodiZGWYluFnn
        Oi3R3xykC0qVeIUXB4xECexqp1HGhEOhEOiK/b/6eP/t98zzk4UrOt1o+uZ/pkAAAAAAAAAAB//xUIARv/whF4////iOtnYps0dB
        0Tiv6f/xeP/P/PFK1nVZlcTfVPqp980GFio3kFHyQYxPU6DzCK+Q37fntusuUjgyPWrWSsq11l5VJW30NLdYfIlFNvo3Z9rLVDOg
        0DSq/5cwbunhoYdRxoxDonFf0//i8f+f+eKVrOqzK4m+qfVT75oAAAAAAAAAHP/xUIAQ//whF4////iO1qJ2jgOib6/T/+5X/X/l
        e9ZYvvy54Pmp9VBBYM0tVM4UVDBtdUGNX96DpdSytNKb5fL5fL5fLjD8tmw6Dk/IYCYcS2LVrIjiY6ILx3JsxnBLZ1jyYEI6bsON
        GIdE31+n/9yv+v/K96yxfflzwfNT6qAAAAAAAAAA4P/xUIASP/whF4////qOlnYpGU2hEOhgOia/Pj/+z4/9/8dVJeXM1Sqs+ua/
        nNAxO7J7EHNWUfI+yj2pgzy8cs4WFhYWNLhJiSlBkFVB6sbUKhEqhmY6uQiBVETaJGgXZPSC1O0mlp0mLhgl0HGhEOhEOia/Pj/+
        z4/9/8dVJeXM1Sqs+ua/nNAAAAAAAAAAA4D/8VCAEV/8IReP///4jraUfo4Dol59v/7z/v/jr19c3KkVZePup+JQjKebaxGMoqPB
        2fYv4g5VgJkrUwhP/J/mQkqEpQlZxpLdcq7wN1F25WzYBOe5rYtmgyzCUllNxVatEZXpFrII37zqONGIdEvPt//ef9/8devrm5Ui
        rLx91PxKAAAAAAAAABz/8VCAEh/8IReP///4jtZ4Ih1IQtHAdEu/z//a9f+3+3G+ObulSGcU99z4zQTKs1fFX7YZeSDxiXRvH+xd
        fWc/QP3o8R96aaaAYWPTUplwrwT/dRknBBcs03wpQje2jS1GLIHRR4I6P3GIgJChOw40Yh0S7/P/9r1/7f7cb45u6VIZxT33PjNA
        AAAAAAAAA4D/8VCAEZ/8IReP///4jhaGIrNHAdE3X9f/7Ov/n7z19UVKsklQBPqoMw6+p3DqVkYxQZfWrTGjzmZCW9+fuR7tddLs
        TXSsUiTN1bFCrk9Uosq1rTFWj9JG4VM2wpU61jDSD0cSI4Ni9IgNtWnAcaMQ6Juv6//2df/P3nr6oqVZJKgCfVQAAAAAAAAAHP/x
        UIAR3/whF4////iOVqI6n0cB0Sp+n/x+n/3+tNzirU1Wcbt+bv4qxPMxTDVWObyKqxtVMGh0zXhYC5VVmyrPB6KLjFl+XyiyzAim
        ZUr1oUZhcFGadHjOakmiWovcQq7bBHdQjt+cW2eUpbkONGIdEqfp/8fp/9/rTc4q1NVnG7fm7+KsAAAAAAAAAHD/8VCAEn/8IReP
        ///4jlaWGRlIgtHAdET9P/28f+X+Z46lFzdaurt+1POWINAY6uHS1eo5Fr+T6GThJslBHEDgDfvK+2y2+0yeeZelj21oyfpJ2Fiy
        5ITdX+vEqX578qP+QO6L53LHMAd1z9xpLGh6Fe5DjRiHRE/T/9vH/l/meOpRc3Wrq7ftTzlgAAAAAAAAA4D/8VCAEn/8IReP///4
        knTUXo6Doi3+u/9tTW7Yx520h53P+8g9E9E9E6p1jbJW/j+v8sI/odY/adY6xtHWMoUERBm27du3bt2/6+HuIAAAAAABi0eHh4ef
        d4AAAAABTuPDw8PW7+ieieidY6plGIfHAbefzva5McaMQ6It/rv/bU1u2MedtIedz/vIAAAAAAAAADj/8VCAEh/8IReP///4kvTC
        Zo7DonHL3nWvev33Ntay41Vu6p/3uAFjnPYc5476r/lznjNxdRxSIoIIIOJnZ2NMmQQSyfHx8fHwB7+/v7+8IHx8fHwYDP7+/voA
        Hx8fC0OwxjbOYdi7F414t2Lo3FaZlxxoxDonHL3nWvev33Ntay41Vu6p/3uAAAAAAAAAA4A=
        """
}
