C     A legacy-style NCUBE Fortran 77 node program: pass a token around
C     the ring of nodes with NWRITE/NREAD, each node adding its number;
C     node 0 checks the sum.  A COMMON block counts calls per node (the
C     emulator gives each node its own copy).
      PROGRAM VXRING
      INTEGER NODE, PID, HOST, DIM, N, NEXT, SRC, TYPE, LEN
      INTEGER TOKEN, FLAG, ROUND, WANT, T0, T1
      INTEGER NWRITE, NREAD, NCUBESIZE, NTIME
      INTEGER CALLS
      COMMON /STATS/ CALLS
      CALLS = 0
      CALL WHOAMI(NODE, PID, HOST, DIM)
      N = NCUBESIZE()
      NEXT = MOD(NODE + 1, N)
      T0 = NTIME()
      DO 10 ROUND = 1, 3
         IF (NODE .EQ. 0) THEN
            TOKEN = 0
            LEN = NWRITE(TOKEN, 4, NEXT, 7, FLAG)
            CALLS = CALLS + 1
            SRC = -1
            TYPE = 7
            LEN = NREAD(TOKEN, 4, SRC, TYPE, FLAG)
            CALLS = CALLS + 1
            WANT = N * (N - 1) / 2
            IF (TOKEN .NE. WANT .OR. LEN .NE. 4) THEN
               WRITE(*,*) 'VXRING: BAD TOKEN', TOKEN, WANT, LEN
               STOP 1
            ENDIF
         ELSE
            SRC = -1
            TYPE = 7
            LEN = NREAD(TOKEN, 4, SRC, TYPE, FLAG)
            CALLS = CALLS + 1
            TOKEN = TOKEN + NODE
            LEN = NWRITE(TOKEN, 4, NEXT, 7, FLAG)
            CALLS = CALLS + 1
         ENDIF
   10 CONTINUE
      T1 = NTIME()
      IF (CALLS .NE. 6) THEN
         WRITE(*,*) 'VXRING: NODE', NODE, 'SHARED COMMON', CALLS
         STOP 1
      ENDIF
      IF (NODE .EQ. 0) THEN
         WRITE(*,'(A,I4,A,I3,A,I8)') ' VXRING: NODES', N, ' DIM', DIM,
     &        ' TICKS', T1 - T0
      ENDIF
      END
