; benchmark generated from python API
(set-info :status unknown)
(declare-fun n () Int)
(assert
 (let (($x355821 (or (= 0 (+ n 34)) (= 1 (+ n 34)) (= 15 (+ n 34)) (= 35 (+ n 34)) (= 5 (mod (+ n 34) 34)) (= 9 (mod (+ n 34) 34)) (= 21 (mod (+ n 34) 34)) (= 25 (mod (+ n 34) 34)) (= 29 (mod (+ n 34) 34)))))
(let (($x241104 (or (= 0 n) (= 1 n) (= 15 n) (= 35 n) (= 5 (mod n 34)) (= 9 (mod n 34)) (= 21 (mod n 34)) (= 25 (mod n 34)) (= 29 (mod n 34)))))
(let (($x416331 (= $x241104 $x355821)))
(let (($x189965 (>= n 53)))
(and $x189965 (or (and (distinct true true) true) (and true (not $x416331)))))))))
(check-sat)
