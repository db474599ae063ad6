C     MATMUL -- C = A X B WITH A DISTRIBUTED BY BLOCKS OF ROWS.
C     A LEGACY-STYLE IPSC/860 NX FORTRAN 77 NODE PROGRAM.  EVERY NODE
C     MAKES ITS OWN N/P ROWS OF A; NODE 0 MAKES B AND SENDS IT TO ALL
C     THE OTHERS (CSEND TO NODE -1); EACH NODE MULTIPLIES ITS ROWS;
C     NODE 0 COLLECTS THE BLOCKS OF C (PLACED BY INFONODE), CHECKS THEM
C     AGAINST A SEQUENTIAL PRODUCT AND THE GDSUM CHECKSUM, PRINTS OK.
C     THE MATRICES ARE THOSE OF THE C VERSION (SAME CHECKSUM).
      PROGRAM NXMM
      INTEGER NMAX, N
      PARAMETER (NMAX = 64, N = 64)
      DOUBLE PRECISION AL(NMAX*NMAX), B(NMAX*NMAX), CL(NMAX*NMAX)
      DOUBLE PRECISION CF(NMAX*NMAX)
      COMMON /MATS/ AL, B, CL, CF
      DOUBLE PRECISION SUM, WORK, CHECK, T0, T1, DCLOCK
      INTEGER ME, NP, ROWS, FIRST, K, FROM, NBAD
      INTEGER MYNODE, NUMNODES, INFONODE
C
      ME = MYNODE()
      NP = NUMNODES()
      IF (MOD(N, NP) .NE. 0) THEN
         IF (ME .EQ. 0) WRITE(*,*) 'NXMM: N NOT A MULTIPLE OF', NP
         STOP 1
      ENDIF
      ROWS = N / NP
      FIRST = ME * ROWS
      CALL MAKEA(ROWS, N, FIRST, AL)
C
      CALL GSYNC()
      T0 = DCLOCK()
      IF (ME .EQ. 0) THEN
         CALL MAKEB(N, B)
         IF (NP .GT. 1) CALL CSEND(100, B, 8 * N * N, -1, 0)
      ELSE
         CALL CRECV(100, B, 8 * N * N)
      ENDIF
      CALL MULT(ROWS, N, AL, B, CL, SUM)
      CALL GDSUM(SUM, 1, WORK)
      T1 = DCLOCK()
C
      IF (ME .NE. 0) THEN
         CALL CSEND(200, CL, 8 * ROWS * N, 0, 0)
      ELSE
         CALL PLACE(ROWS, N, 0, CL, CF)
         DO 10 K = 1, NP - 1
            CALL CRECV(200, CL, 8 * ROWS * N)
            FROM = INFONODE()
            CALL PLACE(ROWS, N, FROM, CL, CF)
   10    CONTINUE
         CALL VERIFY(N, CF, CHECK, NBAD)
         IF (CHECK .NE. SUM) NBAD = NBAD + 1
         WRITE(*,'(A,I4,A,I4,A,I3,A,F10.0,A,F9.3,A)') ' NXMM:', N,
     &        ' X', N, ' ON', NP, ' NODES, CHECKSUM', SUM, ',',
     &        (T1 - T0) * 1.0D3, ' MS'
         IF (NBAD .EQ. 0) THEN
            WRITE(*,*) 'NXMM: OK'
         ELSE
            WRITE(*,*) 'NXMM: FAILED', NBAD
            STOP 1
         ENDIF
      ENDIF
      END
C
C     THE ELEMENTS OF A AND B (ROW I, COLUMN J, FROM 1)
      DOUBLE PRECISION FUNCTION AV(I, J)
      INTEGER I, J
      AV = DBLE(MOD((I - 1) + 2 * (J - 1), 7) - 3)
      END
C
      DOUBLE PRECISION FUNCTION BV(I, J)
      INTEGER I, J
      BV = DBLE(MOD(3 * (I - 1) + (J - 1), 5) - 1)
      END
C
      SUBROUTINE MAKEA(ROWS, N, FIRST, AL)
      INTEGER ROWS, N, FIRST, I, J
      DOUBLE PRECISION AL(ROWS, N), AV
      DO 20 J = 1, N
         DO 10 I = 1, ROWS
            AL(I, J) = AV(FIRST + I, J)
   10    CONTINUE
   20 CONTINUE
      END
C
      SUBROUTINE MAKEB(N, B)
      INTEGER N, I, J
      DOUBLE PRECISION B(N, N), BV
      DO 20 J = 1, N
         DO 10 I = 1, N
            B(I, J) = BV(I, J)
   10    CONTINUE
   20 CONTINUE
      END
C
      SUBROUTINE MULT(ROWS, N, AL, B, CL, SUM)
      INTEGER ROWS, N, I, J, K
      DOUBLE PRECISION AL(ROWS, N), B(N, N), CL(ROWS, N), SUM
      SUM = 0.0D0
      DO 30 J = 1, N
         DO 20 I = 1, ROWS
            CL(I, J) = 0.0D0
            DO 10 K = 1, N
               CL(I, J) = CL(I, J) + AL(I, K) * B(K, J)
   10       CONTINUE
            SUM = SUM + CL(I, J)
   20    CONTINUE
   30 CONTINUE
      END
C
      SUBROUTINE PLACE(ROWS, N, FROM, CL, CF)
      INTEGER ROWS, N, FROM, I, J
      DOUBLE PRECISION CL(ROWS, N), CF(N, N)
      DO 20 J = 1, N
         DO 10 I = 1, ROWS
            CF(FROM * ROWS + I, J) = CL(I, J)
   10    CONTINUE
   20 CONTINUE
      END
C
      SUBROUTINE VERIFY(N, CF, CHECK, NBAD)
      INTEGER N, NBAD, I, J, K
      DOUBLE PRECISION CF(N, N), CHECK, S, AV, BV
      NBAD = 0
      CHECK = 0.0D0
      DO 30 J = 1, N
         DO 20 I = 1, N
            S = 0.0D0
            DO 10 K = 1, N
               S = S + AV(I, K) * BV(K, J)
   10       CONTINUE
            IF (S .NE. CF(I, J)) NBAD = NBAD + 1
            CHECK = CHECK + S
   20    CONTINUE
   30 CONTINUE
      END
