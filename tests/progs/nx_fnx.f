C     A Fortran node program that takes its NX declarations from fnx.h,
C     as legacy codes did: typed functions, DCLOCK, FORCE_TYPE.
      PROGRAM NXFNX
      INCLUDE 'fnx.h'
      INTEGER ME, N, ID, BUF(1), GOT(1)
      DOUBLE PRECISION T0, T1
      ME = MYNODE()
      N = NUMNODES()
      T0 = DCLOCK()
      ID = IRECV(5 + FORCE_TYPE, GOT, 4)
      CALL GSYNC()
      BUF(1) = ME
      CALL CSEND(5 + FORCE_TYPE, BUF, 4, MOD(ME + 1, N), 0)
      CALL MSGWAIT(ID)
      T1 = DCLOCK()
      IF (GOT(1) .NE. MOD(ME + N - 1, N) .OR. T1 .LE. T0) THEN
         WRITE(*,*) 'NXFNX: NODE', ME, 'BAD', GOT(1)
         STOP 1
      ENDIF
      IF (ME .EQ. 0) WRITE(*,'(A,I3)') ' NXFNX: OK ON', N
      END
